package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import io.quarry.ql.parser.SplText;
import java.util.List;
import java.util.Optional;

/**
 * {@code | mstats <aggregation>… [where <search>] [by <dimension>…] [span=<span>]}: statistics over
 * the data points of metric indexes, series by series and chunk by chunk, without events.
 *
 * @param span the {@code _time} bucket (a {@code _time} column first when given; the whole range is
 *     one bucket otherwise)
 * @param prestats {@code prestats=true}: instead of the statistics, the points of the metrics the
 *     aggregations name, one row each ({@code _time} — bucketed by the span if one is given —, the
 *     series' dimensions, {@code metric_name}, {@code index}, and a field named as the metric
 *     holding the value), for a following {@code stats}, {@code timechart} or {@code chart}
 */
public record MstatsCommand(
    List<MetricAggregation> aggregations,
    Optional<SearchExpression> where,
    List<String> groupBy,
    Optional<Span> span,
    boolean prestats,
    Position position)
    implements MetricCommand {
  public MstatsCommand {
    aggregations = List.copyOf(aggregations);
    if (aggregations.isEmpty()) {
      throw new IllegalArgumentException("mstats needs an aggregation");
    }
    requireNonNull(where, "where is null");
    groupBy = List.copyOf(groupBy);
    requireNonNull(span, "span is null");
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "mstats";
  }

  @Override
  public String spl() {
    StringBuilder text = new StringBuilder(prestats ? "mstats prestats=true" : "mstats");
    for (MetricAggregation aggregation : aggregations) {
      text.append(' ').append(aggregation.spl());
    }
    where.ifPresent(w -> text.append(" where ").append(SplText.search(w)));
    if (!groupBy.isEmpty()) {
      text.append(" by ").append(String.join(", ", groupBy));
    }
    span.ifPresent(s -> text.append(" span=").append(SplText.span(s)));
    return text.toString();
  }
}
