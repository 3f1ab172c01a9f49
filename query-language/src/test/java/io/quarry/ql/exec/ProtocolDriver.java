package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.Page;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Drives a chain of built-in operators by the pull protocol alone, checking each call against it,
 * for {@link OperatorTestCase}: {@code addInput} only when {@code needsInput}; no input wanted once
 * {@code finish} was called; nothing blocked (built-in operators never wait); once {@code
 * isFinished}, no output and finished for good; after {@code finish}, {@code getOutput} drains
 * everything held within a bounded number of calls, and only then is the operator finished. The
 * order of feeding and pulling is random (an operator may get several pages before it is asked for
 * output, or be asked for output after each), the answer the same whatever it is. An operator the
 * next one no longer wants (a {@code head} has its rows) is finished early, its output dropped, as
 * {@link Driver} does. Closing is the caller's (it closes every operator, also after a failure).
 */
final class ProtocolDriver {
  /** Calls in a row in which nothing moves before a chain counts as stuck. */
  private static final int IDLE_LIMIT = 10_000;

  private final List<Operator> operators;
  private final boolean[] finishCalled;
  private final Random random;
  private final String name;

  ProtocolDriver(String name, List<Operator> operators, Random random) {
    this.name = name;
    this.operators = operators;
    this.finishCalled = new boolean[operators.size()];
    this.random = random;
  }

  /** Every page the last operator gives, {@code input} fed to the first one. */
  List<Page> run(List<Page> input) {
    return run(input, true);
  }

  /**
   * Feeds {@code input} and moves pages on, as {@link #run(List)}, but never calls {@code finish}:
   * the search is cancelled with the input half read. What the last operator gave so far.
   */
  List<Page> abandon(List<Page> input) {
    return run(input, false);
  }

  private List<Page> run(List<Page> input, boolean finishes) {
    List<Page> output = new ArrayList<>();
    int last = operators.size() - 1;
    int next = 0;
    int idle = 0;
    while (!finished(last)) {
      boolean moved = false;
      if (!finishCalled[0] && !finished(0) && random.nextBoolean()) { // the source's turn
        if (next == input.size()) {
          if (!finishes) {
            for (int i = 0; i <= last; i++) {
              step(i, output);
            }
            return output;
          }
          finish(0);
          moved = true;
        } else if (operators.get(0).needsInput()) {
          operators.get(0).addInput(input.get(next++));
          moved = true;
        }
      }
      for (int i = 0; i <= last; i++) {
        moved |= step(i, output);
      }
      if (moved) {
        idle = 0;
      } else {
        assertThat(++idle)
            .as("%s: operator %s neither finishes nor gives output", name, firstUnfinished())
            .isLessThan(IDLE_LIMIT);
      }
    }
    for (int i = 0; i <= last; i++) {
      assertThat(finished(i)).as("%s: operator %s finished for good", name, describe(i)).isTrue();
    }
    return output;
  }

  /** One call pair on operator {@code i}; whether anything moved. */
  private boolean step(int i, List<Page> output) {
    int last = operators.size() - 1;
    Operator operator = operators.get(i);
    if (finished(i)) {
      assertThat(operator.getOutput()).as("%s: output once finished", describe(i)).isNull();
      if (i < last && !finishCalled[i + 1]) {
        finish(i + 1);
        return true;
      }
      return false;
    }
    if (i < last && finished(i + 1)) { // the rest of the chain takes nothing more
      boolean moved = false;
      if (!finishCalled[i]) {
        finish(i);
        moved = true;
      }
      moved |= operator.getOutput() != null; // dropped
      return moved;
    }
    if (i < last && !operators.get(i + 1).needsInput()) {
      return false;
    }
    if (i < last && !finishCalled[i + 1] && random.nextInt(4) == 0) {
      return false; // let pages wait in the operator
    }
    Page out = operator.getOutput();
    if (out == null) {
      return false;
    }
    if (i == last) {
      output.add(out);
    } else if (out.positionCount() > 0) {
      assertThat(finishCalled[i + 1]).as("%s: input after finish", describe(i + 1)).isFalse();
      operators.get(i + 1).addInput(out);
    }
    return true;
  }

  private void finish(int i) {
    assertThat(finishCalled[i]).as("%s: finish once", describe(i)).isFalse();
    finishCalled[i] = true;
    operators.get(i).finish();
    assertThat(operators.get(i).needsInput())
        .as("%s: needsInput after finish", describe(i))
        .isFalse();
  }

  /** Whether operator {@code i} is finished; once it is, it stays so. */
  private boolean finished(int i) {
    Operator operator = operators.get(i);
    java.util.concurrent.CompletionStage<Void> blocked = operator.isBlocked();
    assertThat(blocked == Operator.NOT_BLOCKED)
        .as("%s: a built-in operator never blocks (returns NOT_BLOCKED)", describe(i))
        .isTrue();
    return operator.isFinished();
  }

  private String firstUnfinished() {
    for (int i = 0; i < operators.size(); i++) {
      if (!operators.get(i).isFinished()) {
        return describe(i);
      }
    }
    return "none";
  }

  private String describe(int i) {
    return name + " [" + i + ": " + operators.get(i).getClass().getSimpleName() + "]";
  }
}
