package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.EvalCommand;
import java.util.LinkedHashMap;

/**
 * {@code eval}: sets fields on each row, left to right, so a later assignment reads an earlier one.
 * A null result removes the field. Assigning {@code _time} takes epoch seconds.
 */
public final class EvalOperator implements RowSink {
  private final EvalCommand command;
  private final Evaluator evaluator;
  private final RowSink downstream;

  public EvalOperator(EvalCommand command, Evaluator evaluator, RowSink downstream) {
    this.command = requireNonNull(command, "command is null");
    this.evaluator = requireNonNull(evaluator, "evaluator is null");
    this.downstream = requireNonNull(downstream, "downstream is null");
  }

  @Override
  public boolean accept(Row row) {
    AssignedRow assigned = new AssignedRow(row, new LinkedHashMap<>());
    for (EvalCommand.Assignment assignment : command.assignments()) {
      Object value = evaluator.evaluate(assignment.expression(), assigned);
      assigned.values().put(assignment.field(), PageEval.assignable(assignment.field(), value));
    }
    return downstream.accept(assigned);
  }

  @Override
  public void finish() {
    downstream.finish();
  }
}
