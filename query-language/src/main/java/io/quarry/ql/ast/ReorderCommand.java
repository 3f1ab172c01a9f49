package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;

/**
 * {@code tail [N]} (the last N results, last first; 10 by default) and {@code reverse} (all
 * results, last first).
 */
public record ReorderCommand(boolean tail, long limit, Position position) implements Command {
  public static final long DEFAULT_TAIL = 10;

  public ReorderCommand {
    if (limit < 0) {
      throw new IllegalArgumentException("limit must not be negative: " + limit);
    }
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return tail ? "tail" : "reverse";
  }
}
