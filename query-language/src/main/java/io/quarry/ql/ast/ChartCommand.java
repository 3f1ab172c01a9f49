package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;
import java.util.Optional;

/**
 * {@code chart [limit=N] [useother=b] [usenull=b] agg, … over X [by Y]} (also {@code … by X, Y}):
 * the aggregations per value of X, one column per value of Y.
 */
public record ChartCommand(
    List<Aggregation> aggregations,
    String over,
    Optional<String> by,
    long limit,
    boolean useOther,
    boolean useNull,
    Position position)
    implements Command {
  public ChartCommand {
    aggregations = List.copyOf(aggregations);
    if (aggregations.isEmpty()) {
      throw new IllegalArgumentException("chart needs an aggregation");
    }
    requireNonNull(over, "over is null");
    requireNonNull(by, "by is null");
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "chart";
  }
}
