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
 * @param append {@code append=true} (with {@code prestats=true} only, as in Splunk): later in a
 *     pipeline, the rows before it pass on and its points follow them once they end
 * @param scope for {@code append=true} later in a pipeline: what it reads, bound when the search is
 *     planned (empty until then, and for a first command, whose plan says it)
 */
public record MstatsCommand(
    List<MetricAggregation> aggregations,
    Optional<SearchExpression> where,
    List<String> groupBy,
    Optional<Span> span,
    boolean prestats,
    boolean append,
    Optional<MetricAppendScope> scope,
    Position position)
    implements MetricCommand {
  /** A command without {@code append=true}. */
  public MstatsCommand(
      List<MetricAggregation> aggregations,
      Optional<SearchExpression> where,
      List<String> groupBy,
      Optional<Span> span,
      boolean prestats,
      Position position) {
    this(aggregations, where, groupBy, span, prestats, false, Optional.empty(), position);
  }

  public MstatsCommand {
    aggregations = List.copyOf(aggregations);
    if (aggregations.isEmpty()) {
      throw new IllegalArgumentException("mstats needs an aggregation");
    }
    requireNonNull(where, "where is null");
    groupBy = List.copyOf(groupBy);
    requireNonNull(span, "span is null");
    requireNonNull(scope, "scope is null");
    requireNonNull(position, "position is null");
    if (append && !prestats) {
      throw new IllegalArgumentException("mstats append=true needs prestats=true");
    }
  }

  /** This command with what it reads when appending bound. */
  public MstatsCommand withScope(MetricAppendScope bound) {
    return new MstatsCommand(
        aggregations, where, groupBy, span, prestats, append, Optional.of(bound), position);
  }

  @Override
  public String name() {
    return "mstats";
  }

  @Override
  public String spl() {
    StringBuilder text = new StringBuilder(prestats ? "mstats prestats=true" : "mstats");
    if (append) {
      text.append(" append=true");
    }
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
