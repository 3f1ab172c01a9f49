package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;

/** {@code where expr}: keeps the rows for which the expression is true. */
public record WhereCommand(Expression condition, Position position) implements Command {
  public WhereCommand {
    requireNonNull(condition, "condition is null");
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "where";
  }
}
