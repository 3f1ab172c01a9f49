package io.quarry.ql.exec;

import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.SeriesFilter;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.ast.TimechartCommand;
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
   * @param buckets the chart's groups, keyed (row, series), as rows into a sink
   * @param seriesField the series' field in {@code buckets}' rows
   */
  static Set<String> kept(
      java.util.function.Consumer<RowSink> buckets, String seriesField, TimechartCommand command) {
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
    return kept(
        buckets,
        seriesField,
        command.aggregations().get(0).outputName(),
        filter,
        command.position());
  }

  /**
   * The series to keep, by name, or null to keep them all.
   *
   * @param buckets the chart's groups, keyed (row, series), as rows into a sink (a {@link
   *     StatsOperator}'s snapshot, or the page engine's groups)
   * @param seriesField the series' field in {@code buckets}' rows
   * @param valueField the output of the aggregation to rank by
   */
  static Set<String> kept(
      java.util.function.Consumer<RowSink> buckets,
      String seriesField,
      String valueField,
      SeriesFilter filter,
      Position position) {
    Map<String, Double> scores = scores(buckets, seriesField, valueField, filter, position);
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
      for (String series : scores.keySet()) {
        if (ranks.contains(series) == in) {
          kept.add(series);
        }
      }
    } else {
      scores.forEach(
          (series, score) -> {
            if (passes(filter, score)) {
              kept.add(series);
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

  /** Each series' aggregate over its values (NaN when it is not a number). */
  private static Map<String, Double> scores(
      java.util.function.Consumer<RowSink> buckets,
      String seriesField,
      String valueField,
      SeriesFilter filter,
      Position position) {
    Map<String, Double> scores = new HashMap<>();
    StatsOperator scoring =
        new StatsOperator(
            new StatsCommand(
                List.of(
                    new Aggregation(
                        filter.function(), Optional.of(VALUE), SCORE, filter.percentile())),
                List.of(SERIES),
                position),
            new RowSink() {
              @Override
              public boolean accept(Row row) {
                String series = Values.toText(row.values(SERIES).get(0));
                List<Object> score = row.values(SCORE);
                scores.put(series, score.size() == 1 ? Values.toNumber(score.get(0)) : Double.NaN);
                return true;
              }

              @Override
              public void finish() {}
            });
    buckets.accept(
        new RowSink() {
          @Override
          public boolean accept(Row row) {
            Map<String, Object> values = new HashMap<>();
            values.put(SERIES, Values.toText(row.values(seriesField).get(0)));
            List<Object> value = row.values(valueField);
            if (!value.isEmpty()) {
              values.put(VALUE, value.size() == 1 ? value.get(0) : value);
            }
            scoring.accept(new MapRow(values));
            return true;
          }

          @Override
          public void finish() {}
        });
    scoring.finish();
    return scores;
  }
}
