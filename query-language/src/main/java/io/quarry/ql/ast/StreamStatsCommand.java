package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;

/**
 * {@code streamstats [current=b] [window=N] [global=b] <aggregation>[, …] [by <field>[, …]]}: each
 * row gets the aggregations over the rows before it (and itself unless {@code current=false}) in
 * its group; with {@code window=N} only over the last N rows — of the whole stream when {@code
 * global} (the default), of the row's group otherwise; with {@code time_window=S} only over the
 * rows less than S from the row's {@code _time}. {@code reset_on_change=true} starts every
 * aggregation afresh when a row's by-field values differ from the previous row's; {@code
 * reset_before="(<condition>)"} before a row for which the condition holds, {@code reset_after}
 * after it.
 *
 * @param timeWindowMicros the time window, or -1 for none
 */
public record StreamStatsCommand(
    StatsCommand stats,
    boolean current,
    int window,
    boolean global,
    long timeWindowMicros,
    boolean resetOnChange,
    java.util.Optional<Expression> resetBefore,
    java.util.Optional<Expression> resetAfter)
    implements Command {

  /** Without a time window or resets. */
  public StreamStatsCommand(StatsCommand stats, boolean current, int window, boolean global) {
    this(
        stats,
        current,
        window,
        global,
        -1,
        false,
        java.util.Optional.empty(),
        java.util.Optional.empty());
  }

  /** Whether the aggregations are over a window of rows (by count or by time). */
  public boolean windowed() {
    return window > 0 || timeWindowMicros > 0;
  }

  public StreamStatsCommand {
    requireNonNull(stats, "stats is null");
    requireNonNull(resetBefore, "resetBefore is null");
    requireNonNull(resetAfter, "resetAfter is null");
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
