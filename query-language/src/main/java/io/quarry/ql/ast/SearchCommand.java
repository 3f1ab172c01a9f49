package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.Optional;

/** {@code search <expression>}: keeps events matching the expression; empty means every event. */
public record SearchCommand(Optional<SearchExpression> expression, Position position)
    implements Command {
  public SearchCommand {
    requireNonNull(expression, "expression is null");
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "search";
  }
}
