package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;

/** {@code head [N]}: the first N results (10 by default), in the order they arrive. */
public record HeadCommand(long limit, Position position) implements Command {
  public HeadCommand {
    if (limit < 0) {
      throw new IllegalArgumentException("limit must not be negative: " + limit);
    }
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "head";
  }
}
