package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;

/**
 * {@code | eventcount [index=<name>]… [summarize=<bool>]}: the number of events in the indexes —
 * one {@code count} row, or with {@code summarize=false} a row per index ({@code count}, {@code
 * index}, {@code server}). Planned as a {@code tstats count}.
 *
 * @param indexes the {@code index=} values (names or patterns); none: the default indexes
 */
public record EventCountCommand(List<String> indexes, boolean summarize, Position position)
    implements Command {
  public EventCountCommand {
    indexes = List.copyOf(indexes);
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "eventcount";
  }
}
