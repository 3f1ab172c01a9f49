package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;

/** {@code stats <aggregation>[, …] [by <field>[, …]]}. */
public record StatsCommand(List<Aggregation> aggregations, List<String> groupBy, Position position)
    implements Command {
  public StatsCommand {
    aggregations = List.copyOf(requireNonNull(aggregations, "aggregations is null"));
    if (aggregations.isEmpty()) {
      throw new IllegalArgumentException("stats needs at least one aggregation");
    }
    groupBy = List.copyOf(requireNonNull(groupBy, "groupBy is null"));
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "stats";
  }
}
