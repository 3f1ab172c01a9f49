package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.SeriesFilter;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.ast.TimechartCommand;
import io.quarry.ql.engine.aggregation.HashAggregationOperator;
import io.quarry.ql.parser.Position;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which series of a {@code chart} or {@code timechart} are kept ({@link SeriesFilter}): the
 * filter's function is applied to each series' values of the first aggregation, one per row of the
 * chart (a time bucket or an over-value, empty rows not counted), and the result ranked or compared
 * with a threshold. Series that are not kept fold into {@code OTHER} or are dropped (the caller's
 * business). A series whose aggregate is not a number ranks below every number and passes no
 * threshold.
 */
final class SeriesSelection {
  private static final String SERIES = "\u0000series";
  private static final String VALUE = "\u0000value";
  private static final String SCORE = "\u0000score";

  private SeriesSelection() {}

  /**
   * The series a {@code chart}/{@code timechart} keeps by its {@code where} clause or its {@code
   * limit}, by name, or null to keep them all (no split field, or neither asked for).
   *
   * @param series each of the chart's groups' series, one per group (row, series)
   * @param values each group's value of the chart's first aggregation (null: none; a {@code List}:
   *     a multivalue), position by position with {@code series}
   */
  static Set<String> kept(List<String> series, List<Object> values, TimechartCommand command) {
    if (command.by().isEmpty()) {
      return null;
    }
    SeriesFilter filter = command.layout().where().orElse(null);
    if (filter == null) {
      if (command.limit() == Long.MAX_VALUE) {
        return null;
      }
      filter = SeriesFilter.top(command.limit());
    }
    return kept(series, values, filter, command.position());
  }

  /**
   * The series to keep, by name, or null to keep them all.
   *
   * @param series each group's series
   * @param values each group's value to rank by, position by position with {@code series}
   */
  static Set<String> kept(
      List<String> series, List<Object> values, SeriesFilter filter, Position position) {
    Map<String, Double> scores = scores(series, values, filter, position);
    Set<String> kept = new LinkedHashSet<>();
    if (filter.comparison().ranks()) {
      boolean top =
          filter.comparison() == SeriesFilter.Comparison.IN_TOP
              || filter.comparison() == SeriesFilter.Comparison.NOT_IN_TOP;
      List<Map.Entry<String, Double>> ranked = new ArrayList<>(scores.entrySet());
      ranked.sort(
          (a, b) -> {
            double x = a.getValue();
            double y = b.getValue();
            if (Double.isNaN(x) || Double.isNaN(y)) {
              int c = Boolean.compare(Double.isNaN(x), Double.isNaN(y));
              if (c != 0) {
                return c;
              }
            } else {
              int c = top ? Double.compare(y, x) : Double.compare(x, y);
              if (c != 0) {
                return c;
              }
            }
            return Values.NATURAL_ORDER.compare(a.getKey(), b.getKey());
          });
      long n = (long) filter.operand();
      Set<String> ranks = new LinkedHashSet<>();
      for (Map.Entry<String, Double> entry : ranked) {
        if (ranks.size() >= n) {
          break;
        }
        ranks.add(entry.getKey());
      }
      boolean in =
          filter.comparison() == SeriesFilter.Comparison.IN_TOP
              || filter.comparison() == SeriesFilter.Comparison.IN_BOTTOM;
      for (String name : scores.keySet()) {
        if (ranks.contains(name) == in) {
          kept.add(name);
        }
      }
    } else {
      scores.forEach(
          (name, score) -> {
            if (passes(filter, score)) {
              kept.add(name);
            }
          });
    }
    return kept.size() == scores.size() ? null : kept;
  }

  private static boolean passes(SeriesFilter filter, double score) {
    if (Double.isNaN(score)) {
      return false;
    }
    double threshold = filter.operand();
    return switch (filter.comparison()) {
      case GREATER -> score > threshold;
      case LESS -> score < threshold;
      case GREATER_OR_EQUAL -> score >= threshold;
      case LESS_OR_EQUAL -> score <= threshold;
      default -> throw new IllegalStateException("a ranking, not a threshold");
    };
  }

  /**
   * Each series' aggregate over its values (NaN when it is not a number): the filter's function as
   * a {@code stats} by series over a page of (series, value), one position per group.
   */
  private static Map<String, Double> scores(
      List<String> series, List<Object> values, SeriesFilter filter, Position position) {
    int count = series.size();
    List<List<Object>> names = new ArrayList<>(count);
    List<List<Object>> cells = new ArrayList<>(count);
    for (int p = 0; p < count; p++) {
      names.add(List.of(series.get(p)));
      Object value = values.get(p);
      cells.add(
          value == null
              ? List.of()
              : value instanceof List<?> multivalue ? List.copyOf(multivalue) : List.of(value));
    }
    Page page = PageBuilder.toPage(List.of(SERIES, VALUE), List.of(names, cells), count);
    HashAggregationOperator scoring =
        new HashAggregationOperator(
            new StatsCommand(
                List.of(
                    new Aggregation(
                        filter.function(), Optional.of(VALUE), SCORE, filter.percentile())),
                List.of(SERIES),
                position),
            MemoryTracker.unbounded("chart series"),
            Math.max(1, count));
    Map<String, Double> scores = new HashMap<>();
    try {
      if (count > 0) {
        scoring.addInput(page);
      }
      for (int id = 0; id < scoring.groupCount(); id++) {
        scores.put(scoring.key(id).get(0), number(scoring.result(id, 0)));
      }
    } finally {
      scoring.close();
    }
    return scores;
  }

  /** A score as a number: NaN when there is none, several, or it is not a number. */
  private static double number(Object score) {
    if (score instanceof List<?> multivalue) {
      return multivalue.size() == 1 ? Values.toNumber(multivalue.get(0)) : Double.NaN;
    }
    return score == null ? Double.NaN : Values.toNumber(score);
  }
}
