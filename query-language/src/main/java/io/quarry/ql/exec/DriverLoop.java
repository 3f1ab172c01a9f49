package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Page;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * The operator-moving core of a {@link Driver}: one pass over the chain ({@link #moveOnce}) — for
 * each neighbouring pair, finish the next operator when this one is finished, else move this one's
 * output into the next while the next needs input; when the next is finished early (a {@code head}
 * has its rows) finish this one and drop what it still gives (a writing step, {@link
 * Driver.Step#writes}, is not finished: it goes on taking every row, its output dropped) — the last
 * operator's output handed to the sink, the finished prefix (up to the first unfinished writing
 * step) closed at once, the chain finished once its last operator and every writing step are;
 * waiting on a blocked operator while checking every {@value Operator#CANCEL_CHECK_MILLIS} ms
 * whether the search was cancelled; and the stage timing of every call into an operator ({@code
 * addInput}, {@code getOutput}, {@code finish}) counted into the search's {@link StageStats}.
 */
final class DriverLoop {
  /** How many idle loops a finishing chain allows an operator that is not blocked. */
  private static final int IDLE_LIMIT = 1_000_000;

  private final Operator[] operators;
  private final Driver.Step[] steps;
  private final boolean[] finishCalled;
  private final Consumer<Page> sink;
  private final StageStats stats;
  private final OperatorContext context;
  private int firstOpen; // the operators before it are finished and closed (the finished prefix)

  DriverLoop(
      List<Driver.Step> steps, Consumer<Page> sink, StageStats stats, OperatorContext context) {
    this.steps = steps.toArray(Driver.Step[]::new);
    this.operators = new Operator[this.steps.length];
    for (int i = 0; i < operators.length; i++) {
      operators[i] = this.steps[i].operator();
    }
    this.finishCalled = new boolean[operators.length];
    this.sink = requireNonNull(sink, "sink is null");
    this.stats = stats;
    this.context = requireNonNull(context, "context is null");
  }

  /** Whether the chain has no operator. */
  boolean empty() {
    return operators.length == 0;
  }

  /** The operators, in order. */
  List<Operator> operators() {
    return List.of(operators);
  }

  void checkCancelled() {
    context.checkCancelled();
  }

  /**
   * One idle-aware step of a driver's loop: a pass over the chain, else a wait for a blocked
   * operator, else a spin; {@code idle} is the count of idle spins so far, the new count returned.
   * Past the limit the operator {@code at} names is reported broken with {@code problem}.
   */
  int step(int idle, IntSupplier at, String problem) {
    if (moveOnce()) {
      return 0;
    }
    if (awaitBlocked()) {
      return idle;
    }
    if (++idle > IDLE_LIMIT) {
      throw stuck(at.getAsInt(), problem);
    }
    Thread.onSpinWait();
    return idle;
  }

  /**
   * Whether the last operator is finished (and not blocked): nothing more comes out; and every
   * writing step is finished too (it wrote every row it was given).
   */
  boolean finished() {
    int last = operators.length - 1;
    return blocked(last) == null
        && operators[last].isFinished()
        && firstUnfinishedWriter() == operators.length;
  }

  /** The first writing step from the first open one on that is not finished; the length if none. */
  private int firstUnfinishedWriter() {
    for (int i = firstOpen; i < operators.length; i++) {
      if (steps[i].writes() && (blocked(i) != null || !operators[i].isFinished())) {
        return i;
      }
    }
    return operators.length;
  }

  /** One pass over the chain; whether anything moved. */
  boolean moveOnce() {
    boolean moved = false;
    int last = operators.length - 1;
    if (firstOpen > 0 && !finishCalled[firstOpen] && blocked(firstOpen) == null) {
      finish(firstOpen); // its input was closed while it was blocked (closeFinishedPrefix)
      moved = true;
    }
    for (int i = firstOpen; i <= last; i++) {
      if (blocked(i) != null) {
        continue;
      }
      if (i == last) {
        Page out = getOutput(i);
        if (out != null) {
          sink.accept(out);
          moved = true;
        }
        continue;
      }
      int next = i + 1;
      if (blocked(next) != null) {
        continue;
      }
      if (operators[next].isFinished()) {
        // the rest of the chain takes nothing more (a head-like command has its rows): this
        // operator finishes early and what it still gives is dropped; the ones before it follow.
        // A writing step goes on taking every row (its input finishes it), its output dropped
        if (!finishCalled[i] && !steps[i].writes()) {
          finish(i);
          moved = true;
        }
        if (!operators[i].isFinished()) {
          Page out = getOutput(i);
          if (out != null) {
            dropped(next, out);
            moved = true;
          }
        }
        continue;
      }
      if (operators[i].isFinished()) {
        if (!finishCalled[next]) {
          finish(next);
          moved = true;
        }
      } else if (operators[next].needsInput()) {
        Page out = getOutput(i);
        if (out != null) {
          if (out.positionCount() > 0) {
            addInput(next, out);
          } else {
            dropped(next, out);
          }
          moved = true;
        }
      }
    }
    if (moved) {
      closeFinishedPrefix();
    }
    return moved;
  }

  /**
   * Closes the finished prefix of the chain: every operator up to the last finished one before the
   * end and before the first unfinished writing step (nothing it held reaches the rest), as ES|QL's
   * driver drops its finished operators; the first still open is finished, its input being over
   * (once it is not blocked: nothing else is asked of a blocked operator).
   */
  private void closeFinishedPrefix() {
    int last = Math.min(operators.length - 1, firstUnfinishedWriter());
    for (int i = last - 1; i >= firstOpen; i--) {
      if (blocked(i) == null && operators[i].isFinished()) {
        RuntimeException failure = closeAll(firstOpen, i + 1);
        firstOpen = i + 1;
        if (!finishCalled[firstOpen] && blocked(firstOpen) == null) {
          finish(firstOpen); // a blocked one is finished once it is not (moveOnce)
        }
        if (failure != null) {
          throw failure;
        }
        return;
      }
    }
  }

  /** Closes the operators still open, the first failure thrown after all are closed. */
  void closeOpen() {
    RuntimeException failure = closeAll(firstOpen, operators.length);
    if (failure != null) {
      throw failure;
    }
  }

  /** Closes operators {@code from} (inclusive) to {@code to} (exclusive); the first failure. */
  private RuntimeException closeAll(int from, int to) {
    RuntimeException failure = null;
    for (int j = from; j < to; j++) {
      try {
        operators[j].close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    return failure;
  }

  private void addInput(int at, Page page) {
    long started = System.nanoTime();
    operators[at].addInput(page);
    count(at, page.positionCount(), System.nanoTime() - started);
  }

  private Page getOutput(int at) {
    long started = System.nanoTime();
    Page out = operators[at].getOutput();
    count(at, 0, System.nanoTime() - started);
    return out;
  }

  private void finish(int at) {
    finishCalled[at] = true;
    long started = System.nanoTime();
    operators[at].finish();
    count(at, 0, System.nanoTime() - started);
  }

  private void count(int at, long rows, long nanos) {
    Driver.Step step = steps[at];
    if (stats != null && step.stage() >= 0) {
      stats.counted(step.stage(), step.countsRows() ? rows : 0, nanos);
    }
  }

  /**
   * A page operator {@code at} does not take (it is finished, or the page is empty): where the page
   * was reserved for that operator already (a transforming plugin's map side states), its blocks
   * are released.
   */
  private void dropped(int at, Page page) {
    if (operators[at] instanceof PluginOperator plugin) {
      plugin.dropped(page);
    }
  }

  /** The operator's blocked future when it is not done yet, else null. */
  CompletableFuture<Void> blocked(int at) {
    CompletionStage<Void> blocked = operators[at].isBlocked();
    if (blocked == Operator.NOT_BLOCKED) {
      return null;
    }
    if (blocked == null) {
      throw stuck(at, "isBlocked returned null (return Operator.NOT_BLOCKED)");
    }
    CompletableFuture<Void> future = blocked.toCompletableFuture();
    if (!future.isDone()) {
      return future;
    }
    waitFor(at, future); // done: rethrows how it failed, if it did
    return null;
  }

  /** Waits for the first blocked operator; false when none is. */
  private boolean awaitBlocked() {
    for (int i = firstOpen; i < operators.length; i++) {
      CompletableFuture<Void> future = blocked(i);
      if (future != null) {
        waitFor(i, future);
        return true;
      }
    }
    return false;
  }

  private void waitFor(int at, CompletableFuture<Void> future) {
    while (true) {
      context.checkCancelled();
      try {
        future.get(Operator.CANCEL_CHECK_MILLIS, TimeUnit.MILLISECONDS);
        return;
      } catch (TimeoutException stillBlocked) {
        // check for cancellation again
      } catch (ExecutionException e) {
        throw operators[at] instanceof RunsPlugin plugin
            ? plugin.failure(e.getCause())
            : new IllegalStateException("an operator's isBlocked future failed", e.getCause());
      } catch (CancellationException e) {
        throw stuck(at, "its isBlocked future was cancelled");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CancellationException("interrupted waiting for a blocked operator");
      }
    }
  }

  int firstUnfinished() {
    for (int i = firstOpen; i < operators.length; i++) {
      if (!operators[i].isFinished()) {
        return i;
      }
    }
    return operators.length - 1;
  }

  /** A broken operator: a plugin's (bare or wrapped: {@link RunsPlugin}) is named. */
  RuntimeException stuck(int at, String problem) {
    IllegalStateException cause = new IllegalStateException(problem);
    return operators[at] instanceof RunsPlugin plugin ? plugin.failure(cause) : cause;
  }
}
