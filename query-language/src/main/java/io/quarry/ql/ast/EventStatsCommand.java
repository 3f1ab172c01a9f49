package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;

/**
 * {@code eventstats <aggregation>[, …] [by <field>[, …]]}: the aggregations of {@code stats}, added
 * to every row of its group instead of replacing the rows.
 */
public record EventStatsCommand(StatsCommand stats) implements Command {
  public EventStatsCommand {
    requireNonNull(stats, "stats is null");
  }

  @Override
  public String name() {
    return "eventstats";
  }

  @Override
  public Position position() {
    return stats.position();
  }
}
