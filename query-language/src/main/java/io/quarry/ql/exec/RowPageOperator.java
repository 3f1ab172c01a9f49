package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A built-in command behind the pull protocol of {@link Operator} (the plugin API's): pages in,
 * pages out. Inside, the command still runs row at a time — its {@link RowSink} operator between a
 * page's rows and a {@link PageCollector} — so this adapter gives the built-ins the page contract
 * (and lets {@code OperatorTestCase} check them with random page sizes and memory accounting)
 * before their typed-block rewrite; it is not that rewrite.
 */
public final class RowPageOperator implements Operator {
  private final Deque<Page> output = new ArrayDeque<>();
  private final RowSink operator;
  private boolean finishing;

  /**
   * {@code command}'s operator, its memory counted by {@code evaluator}'s resources, emitting pages
   * of at most {@code pageSize} rows.
   */
  public RowPageOperator(Command command, Evaluator evaluator, int pageSize) {
    requireNonNull(command, "command is null");
    requireNonNull(evaluator, "evaluator is null");
    this.operator =
        Pipelines.operator(command, new PageCollector(pageSize, output::add), evaluator);
  }

  @Override
  public boolean needsInput() {
    return !finishing && output.isEmpty();
  }

  @Override
  public void addInput(Page page) {
    if (finishing) {
      throw new IllegalStateException("input after finish");
    }
    for (Row row : PluginOperators.rows(page)) {
      if (!operator.accept(row)) { // e.g. head has its rows: nothing more can change the answer
        finish();
        return;
      }
    }
  }

  @Override
  public void finish() {
    if (!finishing) {
      finishing = true;
      operator.finish();
    }
  }

  @Override
  public boolean isFinished() {
    return finishing && output.isEmpty();
  }

  @Override
  public Page getOutput() {
    return output.poll();
  }
}
