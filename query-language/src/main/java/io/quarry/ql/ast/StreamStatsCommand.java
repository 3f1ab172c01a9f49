package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;

/**
 * {@code streamstats [current=b] [window=N] [global=b] <aggregation>[, …] [by <field>[, …]]}: each
 * row gets the aggregations over the rows before it (and itself unless {@code current=false}) in
 * its group; with {@code window=N} only over the last N rows — of the whole stream when {@code
 * global} (the default), of the row's group otherwise.
 */
public record StreamStatsCommand(StatsCommand stats, boolean current, int window, boolean global)
    implements Command {
  public StreamStatsCommand {
    requireNonNull(stats, "stats is null");
    if (window < 0) {
      throw new IllegalArgumentException("window must be >= 0: " + window);
    }
  }

  @Override
  public String name() {
    return "streamstats";
  }

  @Override
  public Position position() {
    return stats.position();
  }
}
