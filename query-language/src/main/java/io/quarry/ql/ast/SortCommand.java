package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;

/**
 * {@code sort [N] [limit=N] key, …}: orders results by the keys; keeps at most {@code limit}
 * (Splunk's default is 10,000; 0 means all).
 */
public record SortCommand(long limit, List<SortKey> keys, Position position) implements Command {
  /** Splunk's default number of results {@code sort} keeps. */
  public static final long DEFAULT_LIMIT = 10_000;

  public SortCommand {
    keys = List.copyOf(keys);
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("sort needs at least one key");
    }
    if (limit < 0) {
      throw new IllegalArgumentException("limit must not be negative: " + limit);
    }
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "sort";
  }
}
