package io.quarry.ql.plan;

import io.quarry.ql.ast.AggregateFunction;
import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.ComparisonOperator;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.ast.EventCountCommand;
import io.quarry.ql.ast.Expression;
import io.quarry.ql.ast.MetadataCommand;
import io.quarry.ql.ast.ProjectCommand;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.ast.TstatsCommand;
import io.quarry.ql.parser.Position;
import java.util.List;
import java.util.Optional;

/**
 * {@code metadata} and {@code eventcount} as the {@code tstats} they stand for (what Splunk's
 * Search Reference gives as their equivalents): {@code metadata type=hosts index=web} is {@code
 * tstats count AS totalCount, min(_time) AS firstTime, max(_time) AS lastTime where index=web by
 * host}, then {@code recentTime} (Quarry keeps no separate index time: the latest event time) and
 * {@code type}; {@code eventcount} is {@code tstats count} (per index with {@code
 * summarize=false}).
 */
final class IndexSummaries {
  private IndexSummaries() {}

  /** The tstats, and the commands after its stats. */
  record Planned(TstatsCommand tstats, List<Command> after) {}

  static Planned plan(Command command) {
    return switch (command) {
      case MetadataCommand metadata -> metadata(metadata);
      case EventCountCommand count -> eventCount(count);
      default -> throw new IllegalArgumentException("not an index summary: " + command.name());
    };
  }

  private static Planned metadata(MetadataCommand metadata) {
    Position at = metadata.position();
    StatsCommand stats =
        new StatsCommand(
            List.of(
                new Aggregation(AggregateFunction.COUNT, Optional.empty(), "totalCount"),
                new Aggregation(AggregateFunction.MIN, Optional.of("_time"), "firstTime"),
                new Aggregation(AggregateFunction.MAX, Optional.of("_time"), "lastTime")),
            List.of(metadata.field()),
            at);
    EvalCommand labels =
        new EvalCommand(
            List.of(
                new EvalCommand.Assignment("recentTime", new Expression.Field("lastTime")),
                new EvalCommand.Assignment("type", new Expression.Literal(metadata.type()))),
            at);
    ProjectCommand columns =
        new ProjectCommand(
            ProjectCommand.Kind.TABLE,
            List.of("firstTime", metadata.field(), "lastTime", "recentTime", "totalCount", "type"),
            at);
    return new Planned(
        new TstatsCommand(indexes(metadata.indexes(), at), stats, Optional.empty(), at),
        List.of(labels, columns));
  }

  private static Planned eventCount(EventCountCommand count) {
    Position at = count.position();
    Aggregation events = new Aggregation(AggregateFunction.COUNT, Optional.empty(), "count");
    if (count.summarize()) {
      return new Planned(
          new TstatsCommand(
              indexes(count.indexes(), at),
              new StatsCommand(List.of(events), List.of(), at),
              Optional.empty(),
              at),
          List.of());
    }
    return new Planned(
        new TstatsCommand(
            indexes(count.indexes(), at),
            new StatsCommand(List.of(events), List.of("index"), at),
            Optional.empty(),
            at),
        List.of(
            new EvalCommand(
                List.of(new EvalCommand.Assignment("server", new Expression.Literal("quarry"))),
                at),
            new ProjectCommand(
                ProjectCommand.Kind.TABLE, List.of("count", "index", "server"), at)));
  }

  /** {@code index=a} or {@code index IN (a, b)}; none for the default indexes. */
  private static Optional<SearchExpression> indexes(List<String> names, Position at) {
    return switch (names.size()) {
      case 0 -> Optional.empty();
      case 1 ->
          Optional.of(
              new SearchExpression.Comparison(
                  "index", ComparisonOperator.EQ, names.get(0), false, at));
      default -> Optional.of(new SearchExpression.In("index", names, at));
    };
  }
}
