package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;

/**
 * {@code | dbinspect [index=<name>]…}: one row per bucket of the indexes (names or {@code *}
 * patterns; none: the search's default indexes) with its id, state, event count, time range, size
 * and path. A generating command: the rows come from the store, not from events.
 */
public record DbinspectCommand(List<String> indexes, Position position) implements Command {
  public DbinspectCommand {
    indexes = List.copyOf(indexes);
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "dbinspect";
  }
}
