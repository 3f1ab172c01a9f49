package io.quarry.ql.plan;

import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.ChartCommand;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.ast.EventStatsCommand;
import io.quarry.ql.ast.Expression;
import io.quarry.ql.ast.ProjectCommand;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.ast.StreamStatsCommand;
import io.quarry.ql.ast.TimechartCommand;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Splunk's {@code f(eval(<expression>))} in {@code stats}, {@code chart}, {@code timechart}, {@code
 * eventstats} and {@code streamstats}: a planner rule that sets each such field — named {@code
 * eval(…)} as written — by an {@code eval} right before the command, so the aggregation reads an
 * ordinary field. A condition ({@code count(eval(status>=500))}) counts where it holds: it is set
 * as {@code if(condition, 1, null())}, so a false event has no value. After {@code eventstats} and
 * {@code streamstats}, which keep their input's fields, the helper fields are removed again.
 */
final class EvaluatedAggregations {
  private static final Set<String> COMPARISONS =
      Set.of("=", "==", "!=", "<", "<=", ">", ">=", "LIKE", "AND", "OR", "XOR");
  private static final Set<String> CONDITIONS =
      Set.of(
          "isnull",
          "isnotnull",
          "isnum",
          "isstr",
          "isint",
          "isbool",
          "isdouble",
          "isarray",
          "isobject",
          "ismv",
          "tobool",
          "like",
          "match",
          "cidrmatch",
          "searchmatch",
          "in",
          "true",
          "false");

  private EvaluatedAggregations() {}

  /** The pipeline with an {@code eval} before every command that aggregates {@code eval(…)}. */
  static List<Command> expand(List<Command> pipeline) {
    List<Command> expanded = new ArrayList<>(pipeline.size());
    for (Command command : pipeline) {
      List<Aggregation> aggregations =
          switch (command) {
            case StatsCommand stats -> stats.aggregations();
            case ChartCommand chart -> chart.aggregations();
            case TimechartCommand timechart -> timechart.aggregations();
            case EventStatsCommand eventstats -> eventstats.stats().aggregations();
            case StreamStatsCommand streamstats -> streamstats.stats().aggregations();
            default -> List.of();
          };
      Map<String, Expression> helpers = new LinkedHashMap<>();
      for (Aggregation aggregation : aggregations) {
        aggregation
            .evaluated()
            .ifPresent(e -> helpers.putIfAbsent(aggregation.field().orElseThrow(), counted(e)));
      }
      if (helpers.isEmpty()) {
        expanded.add(command);
        continue;
      }
      List<EvalCommand.Assignment> assignments = new ArrayList<>();
      helpers.forEach(
          (field, expression) -> assignments.add(new EvalCommand.Assignment(field, expression)));
      expanded.add(new EvalCommand(assignments, command.position()));
      expanded.add(command);
      if (command instanceof EventStatsCommand || command instanceof StreamStatsCommand) {
        expanded.add(
            new ProjectCommand(
                ProjectCommand.Kind.REMOVE, List.copyOf(helpers.keySet()), command.position()));
      }
    }
    return expanded;
  }

  /** A condition as {@code if(condition, 1, null())}: an event where it is false has no value. */
  private static Expression counted(Expression expression) {
    if (!isCondition(expression)) {
      return expression;
    }
    return new Expression.Call(
        "if",
        List.of(expression, new Expression.Literal(1L), new Expression.Call("null", List.of(), 0)),
        0);
  }

  private static boolean isCondition(Expression expression) {
    return switch (expression) {
      case Expression.Binary binary -> COMPARISONS.contains(binary.operator());
      case Expression.Unary unary -> unary.operator().equalsIgnoreCase("NOT");
      case Expression.Call call -> CONDITIONS.contains(call.function());
      case Expression.Literal literal -> literal.value() instanceof Boolean;
      case Expression.Field field -> false;
    };
  }
}
