package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;
import java.util.Optional;

/**
 * {@code chart [limit=N] [useother=b] [usenull=b] [otherstr=s] [nullstr=s] [sep=s] [format=s]
 * [cont=b] agg, … over X [span=S|bins=N] [by Y [where …]]} (also {@code … by X, Y}): the
 * aggregations per value of X, one column per value of Y; the columns of Y's rare values and of
 * rows without Y are labelled {@code otherStr} and {@code nullStr} (Splunk's {@code OTHER} and
 * {@code NULL} by default).
 *
 * @param overSpan the span X's values are binned by, as {@code bin} bins them
 * @param overBins without a span, the most bins X's range is cut into (0: X is not binned)
 * @param layout column names, empty bins and the where clause ({@link SeriesLayout})
 */
public record ChartCommand(
    List<Aggregation> aggregations,
    String over,
    Optional<String> by,
    long limit,
    boolean useOther,
    boolean useNull,
    String otherStr,
    String nullStr,
    Optional<Span> overSpan,
    int overBins,
    SeriesLayout layout,
    Position position)
    implements Command {
  /** With Splunk's default labels ({@code OTHER}, {@code NULL}). */
  public ChartCommand(
      List<Aggregation> aggregations,
      String over,
      Optional<String> by,
      long limit,
      boolean useOther,
      boolean useNull,
      Position position) {
    this(
        aggregations,
        over,
        by,
        limit,
        useOther,
        useNull,
        TimechartCommand.OTHER,
        TimechartCommand.NULL,
        Optional.empty(),
        0,
        SeriesLayout.DEFAULT,
        position);
  }

  /**
   * This chart's pivot as a timechart's (no span: its rows are the over-field's values), the form
   * the chart's aggregation and pivot take.
   */
  public TimechartCommand asTimechart() {
    return new TimechartCommand(
        Optional.empty(),
        1,
        limit,
        useOther,
        useNull,
        aggregations,
        by,
        otherStr,
        nullStr,
        layout,
        position);
  }

  /** Whether X's values are cut into bins ({@code span=} or {@code bins=} after it). */
  public boolean binsOver() {
    return overSpan.isPresent() || overBins > 0;
  }

  public ChartCommand {
    requireNonNull(otherStr, "otherStr is null");
    requireNonNull(nullStr, "nullStr is null");
    aggregations = List.copyOf(aggregations);
    if (aggregations.isEmpty()) {
      throw new IllegalArgumentException("chart needs an aggregation");
    }
    requireNonNull(over, "over is null");
    requireNonNull(by, "by is null");
    requireNonNull(position, "position is null");
    requireNonNull(overSpan, "overSpan is null");
    requireNonNull(layout, "layout is null");
    if (overBins < 0) {
      throw new IllegalArgumentException("overBins is negative: " + overBins);
    }
  }

  @Override
  public String name() {
    return "chart";
  }
}
