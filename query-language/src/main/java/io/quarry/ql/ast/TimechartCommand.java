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
 */
public record TimechartCommand(
    Optional<Span> span,
    int bins,
    long limit,
    boolean useOther,
    boolean useNull,
    List<Aggregation> aggregations,
    Optional<String> by,
    Position position)
    implements Command {
  public TimechartCommand {
    requireNonNull(span, "span is null");
    aggregations = List.copyOf(aggregations);
    if (aggregations.isEmpty()) {
      throw new IllegalArgumentException("timechart needs an aggregation");
    }
    requireNonNull(by, "by is null");
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "timechart";
  }
}
