package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;

/** {@code eval f=expr[, g=expr …]}: sets fields, left to right (a later one sees earlier ones). */
public record EvalCommand(List<Assignment> assignments, Position position) implements Command {
  /** One {@code field=expression}. */
  public record Assignment(String field, Expression expression) {
    public Assignment {
      requireNonNull(field, "field is null");
      requireNonNull(expression, "expression is null");
    }
  }

  public EvalCommand {
    assignments = List.copyOf(assignments);
    if (assignments.isEmpty()) {
      throw new IllegalArgumentException("eval needs an assignment");
    }
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "eval";
  }
}
