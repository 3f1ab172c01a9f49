package io.quarry.ql.exec;

import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.TimechartCommand;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The pivot of {@code timechart} and {@code chart} ({@link TimechartOperator}): the rows of the
 * inner {@code stats} by (bucket, series) collected into one map per bucket (or over-value) of
 * column to value, the series columns in order (sorted by value, {@code NULL} and {@code OTHER}
 * last; with several aggregations, aggregation by aggregation, named by {@link
 * io.quarry.ql.ast.SeriesLayout}), and each wide row with its empty cells filled.
 */
final class ChartPivot {
  /** The inner names of the series of rare values and of rows without the split field. */
  static final String OTHER = "OTHER";

  static final String NULL = "NULL";

  private final TimechartCommand command;
  private final String overField;
  private final String bucketField;
  private final String seriesField;

  /**
   * @param overField chart's over-field, null for timechart (buckets are epoch microseconds)
   * @param bucketField the bucket's field in the inner stats' rows
   * @param seriesField the series' field in them
   */
  ChartPivot(TimechartCommand command, String overField, String bucketField, String seriesField) {
    this.command = command;
    this.overField = overField;
    this.bucketField = bucketField;
    this.seriesField = seriesField;
  }

  /**
   * One wide row; missing cells filled (0 for count and dc). A {@code per_second} … {@code per_day}
   * column's sum is divided by the bucket's length in that unit ({@code bucketSeconds}).
   */
  Row row(
      String keyField,
      Object key,
      Map<String, Object> values,
      Map<String, Aggregation> columns,
      double bucketSeconds) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put(keyField, key);
    for (Map.Entry<String, Aggregation> entry : columns.entrySet()) {
      String column = entry.getKey();
      Object value = values.get(column);
      long unit = entry.getValue().function().perUnitSeconds();
      if (unit > 0 && value != null && !Double.isNaN(bucketSeconds)) {
        value = Values.toNumber(value) * unit / bucketSeconds;
      }
      row.put(column, value != null ? value : fill(entry.getValue()));
    }
    return new MapRow(row);
  }

  /** Collects stats rows into bucket -> column -> value, remembering series in sorted order. */
  RowSink collect(TreeMap<Object, Map<String, Object>> rows, List<String> seriesOrder) {
    Set<String> seen = new LinkedHashSet<>();
    return new RowSink() {
      @Override
      public boolean accept(Row row) {
        String keyText = Values.toText(row.values(bucketField).get(0));
        Object key = overField == null ? (Object) Long.parseLong(keyText) : keyText;
        Map<String, Object> values = rows.computeIfAbsent(key, k -> new HashMap<>());
        String series =
            command.by().isPresent() ? Values.toText(row.values(seriesField).get(0)) : null;
        if (series != null) {
          seen.add(series);
        }
        for (Aggregation aggregation : command.aggregations()) {
          List<Object> value = row.values(aggregation.outputName());
          if (!value.isEmpty()) {
            values.put(column(aggregation, series), value.size() == 1 ? value.get(0) : value);
          }
        }
        return true;
      }

      @Override
      public void finish() {
        List<String> sorted = new ArrayList<>(seen);
        sorted.remove(OTHER);
        sorted.remove(NULL);
        // binned values by their ranges' low ends ("200-300" before "1000-1100")
        sorted.sort(
            command.layout().binsSplit() ? OverBins.ORDER::compare : Values.NATURAL_ORDER::compare);
        if (seen.contains(NULL)) {
          sorted.add(NULL);
        }
        if (seen.contains(OTHER)) {
          sorted.add(OTHER);
        }
        seriesOrder.addAll(sorted);
      }
    };
  }

  /**
   * A series column is named by its value; with several aggregations, {@code agg: value}; the
   * series of rare values and of events without the by-field by {@code otherstr}/{@code nullstr}.
   */
  private String column(Aggregation aggregation, String series) {
    if (series == null) {
      return aggregation.outputName();
    }
    String label =
        series.equals(OTHER)
            ? command.otherStr()
            : series.equals(NULL) ? command.nullStr() : series;
    return command.aggregations().size() == 1
        ? label
        : command.layout().column(aggregation.outputName(), label);
  }

  /** The columns in order, each with the aggregation it shows. */
  Map<String, Aggregation> columns(List<String> seriesOrder) {
    Map<String, Aggregation> columns = new LinkedHashMap<>();
    if (command.by().isEmpty()) {
      command.aggregations().forEach(a -> columns.put(a.outputName(), a));
      return columns;
    }
    for (Aggregation aggregation : command.aggregations()) {
      for (String series : seriesOrder) {
        columns.putIfAbsent(column(aggregation, series), aggregation);
      }
    }
    return columns;
  }

  /** What an empty bucket shows: 0 for counts, null otherwise. */
  private static Object fill(Aggregation aggregation) {
    return switch (aggregation.function()) {
      case COUNT, DISTINCT_COUNT, ESTIMATED_DISTINCT_COUNT -> 0L;
      default -> null;
    };
  }
}
