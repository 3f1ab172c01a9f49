package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Page;
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
 * The pivot of {@code timechart} and {@code chart} ({@link ChartEnd}): the groups of the inner
 * {@code stats} by (bucket, series) collected into one map per bucket (or over-value) of column to
 * value, the series columns in order (sorted by value, {@code NULL} and {@code OTHER} last; with
 * several aggregations, aggregation by aggregation, named by {@link
 * io.quarry.ql.ast.SeriesLayout}), each wide row's cells with its empty ones filled, and pages of
 * wide rows.
 */
final class ChartPivot {
  /** The inner names of the series of rare values and of rows without the split field. */
  static final String OTHER = "OTHER";

  static final String NULL = "NULL";

  private final TimechartCommand command;
  private final String overField;

  /**
   * @param overField chart's over-field, null for timechart (buckets are epoch microseconds)
   */
  ChartPivot(TimechartCommand command, String overField) {
    this.command = command;
    this.overField = overField;
  }

  /**
   * One wide row's cells by column: the key first, then every column, a missing cell filled (0 for
   * count and dc). A {@code per_second} … {@code per_day} column's sum is divided by the bucket's
   * length in that unit ({@code bucketSeconds}). A value is single or a {@code List} (a
   * multivalue); null is no value.
   */
  Map<String, Object> cells(
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
    return row;
  }

  /**
   * A page of wide rows ({@link #cells}, each with the same columns in the same order), each column
   * typed as the page builder types its values.
   */
  static Page page(List<Map<String, Object>> rows) {
    List<String> names = new ArrayList<>(rows.get(0).keySet());
    List<List<List<Object>>> columns = new ArrayList<>(names.size());
    for (String name : names) {
      List<List<Object>> cells = new ArrayList<>(rows.size());
      for (Map<String, Object> row : rows) {
        cells.add(valuesOf(row.get(name)));
      }
      columns.add(cells);
    }
    return PageBuilder.toPage(names, columns, rows.size());
  }

  /** A cell's values: none for null, a multivalue's values, else the one value. */
  private static List<Object> valuesOf(Object value) {
    if (value instanceof List<?> multivalue) {
      return List.copyOf(multivalue);
    }
    return value == null ? List.of() : List.of(value);
  }

  /**
   * One group's aggregation results as a cell each: none for null or an empty multivalue, the one
   * value of a multivalue of one.
   */
  static Object cell(Object result) {
    if (result instanceof List<?> multivalue) {
      return multivalue.isEmpty()
          ? null
          : multivalue.size() == 1 ? multivalue.get(0) : List.copyOf(multivalue);
    }
    return result;
  }

  /**
   * Collects the inner stats' groups into bucket (or over-value) → column → value, remembering the
   * series seen; {@link #seriesOrder} sorts them once every group is in.
   */
  Collector collect(TreeMap<Object, Map<String, Object>> rows) {
    return new Collector(rows);
  }

  /** The groups of the inner stats gathered into wide rows ({@link #collect}). */
  final class Collector {
    private final TreeMap<Object, Map<String, Object>> rows;
    private final Set<String> seen = new LinkedHashSet<>();

    private Collector(TreeMap<Object, Map<String, Object>> rows) {
      this.rows = rows;
    }

    /**
     * One group: its bucket's key as text (epoch microseconds for timechart), its series (null
     * without a split field), and each aggregation's result by output name ({@link #cell}s).
     */
    void add(String bucket, String series, Map<String, Object> results) {
      Object key = overField == null ? (Object) Long.parseLong(bucket) : bucket;
      Map<String, Object> values = rows.computeIfAbsent(key, k -> new HashMap<>());
      if (series != null) {
        seen.add(series);
      }
      for (Aggregation aggregation : command.aggregations()) {
        Object value = results.get(aggregation.outputName());
        if (value != null) {
          values.put(column(aggregation, series), value);
        }
      }
    }

    /** The series seen, sorted by value ({@code NULL} and {@code OTHER} last). */
    List<String> seriesOrder() {
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
      return sorted;
    }
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
