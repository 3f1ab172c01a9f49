package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;
import java.util.Optional;

/**
 * {@code timechart [span=S] [bins=N] [limit=N] [useother=b] [usenull=b] agg, … [by field]}: the
 * aggregations per time bucket, one column per value of the by-field.
 *
 * @param span the bucket size; empty: chosen so there are at most {@code bins} buckets
 * @param layout column names, empty buckets ({@code cont}) and the where clause ({@link
 *     SeriesLayout})
 */
public record TimechartCommand(
    Optional<Span> span,
    int bins,
    long limit,
    boolean useOther,
    boolean useNull,
    List<Aggregation> aggregations,
    Optional<String> by,
    String otherStr,
    String nullStr,
    SeriesLayout layout,
    Position position)
    implements Command {
  /** Splunk's labels of the series of rare values and of events without the by-field. */
  public static final String OTHER = "OTHER";

  public static final String NULL = "NULL";

  /** With Splunk's default labels ({@code OTHER}, {@code NULL}). */
  public TimechartCommand(
      Optional<Span> span,
      int bins,
      long limit,
      boolean useOther,
      boolean useNull,
      List<Aggregation> aggregations,
      Optional<String> by,
      Position position) {
    this(
        span,
        bins,
        limit,
        useOther,
        useNull,
        aggregations,
        by,
        OTHER,
        NULL,
        SeriesLayout.DEFAULT,
        position);
  }

  public TimechartCommand {
    requireNonNull(otherStr, "otherStr is null");
    requireNonNull(nullStr, "nullStr is null");
    requireNonNull(span, "span is null");
    aggregations = List.copyOf(aggregations);
    if (aggregations.isEmpty()) {
      throw new IllegalArgumentException("timechart needs an aggregation");
    }
    requireNonNull(by, "by is null");
    requireNonNull(position, "position is null");
    requireNonNull(layout, "layout is null");
  }

  @Override
  public String name() {
    return "timechart";
  }
}
