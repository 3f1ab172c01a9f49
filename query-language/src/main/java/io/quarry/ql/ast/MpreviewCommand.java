package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import io.quarry.ql.parser.SplText;
import java.util.Optional;

/**
 * {@code | mpreview [target_per_timeseries=<n>] <search>}: raw data points of metric indexes as
 * rows ({@code _time}, {@code metric_name}, {@code _value} and the dimensions), at most {@code
 * targetPerSeries} points per series (Splunk's default 5; 0 for all). The search names the indexes
 * and filters series like mstats' where clause (Splunk puts the filter in {@code filter="…"}, which
 * is accepted too).
 */
public record MpreviewCommand(
    Optional<SearchExpression> where, long targetPerSeries, Position position)
    implements MetricCommand {
  public static final long DEFAULT_TARGET = 5;

  public MpreviewCommand {
    requireNonNull(where, "where is null");
    if (targetPerSeries < 0) {
      throw new IllegalArgumentException("target_per_timeseries must be at least 0");
    }
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "mpreview";
  }

  @Override
  public String spl() {
    return "mpreview"
        + (targetPerSeries == DEFAULT_TARGET ? "" : " target_per_timeseries=" + targetPerSeries)
        + where.map(w -> " " + SplText.search(w)).orElse("");
  }
}
