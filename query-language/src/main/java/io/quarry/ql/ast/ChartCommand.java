package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;
import java.util.Optional;

/**
 * {@code chart [limit=N] [useother=b] [usenull=b] [otherstr=s] [nullstr=s] agg, … over X [by Y]}
 * (also {@code … by X, Y}): the aggregations per value of X, one column per value of Y; the columns
 * of Y's rare values and of rows without Y are labelled {@code otherStr} and {@code nullStr}
 * (Splunk's {@code OTHER} and {@code NULL} by default).
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
        position);
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
  }

  @Override
  public String name() {
    return "chart";
  }
}
