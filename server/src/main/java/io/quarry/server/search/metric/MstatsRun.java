package io.quarry.server.search.metric;

import io.quarry.codecs.metricstore.MetricScanVisitor;
import io.quarry.codecs.metricstore.Postings;
import io.quarry.codecs.metricstore.SeriesKey;
import io.quarry.ql.ast.MetricAggregation;
import io.quarry.ql.ast.MstatsCommand;
import io.quarry.ql.ast.Span;
import io.quarry.ql.exec.MapRow;
import io.quarry.ql.exec.Row;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;

/**
 * One {@code mstats}: a scan visitor that sends each selected series' points to the states of its
 * group (the series' values of the by-fields) and time bucket, one state per output column, and
 * then the rows: {@code _time} (with a span), the by-fields, the columns — ordered by time, then
 * by-field values.
 *
 * <p>Columns: an aggregation of a named metric is one column; of a pattern ({@code cpu.*}), one per
 * metric name that matches, ordered by name; of {@code _value}, one over every selected series. A
 * series that lacks a by-field is left out, as {@code stats} leaves out rows without one.
 */
final class MstatsRun implements MetricScanVisitor {
  private final MstatsCommand command;
  private final Span span;
  private final ZoneId zone;
  private final BooleanSupplier stopped;
  private final Pattern[] patterns;
  private final Map<String, Integer> columnIds = new HashMap<>();
  private final List<Column> columns = new ArrayList<>();
  private final Map<GroupKey, MetricState[]> groups = new HashMap<>();
  private final Map<TrackerKey, MetricState.RateTracker> trackers = new HashMap<>();
  private String index = "";

  /** An output column: an aggregation applied to one metric name (or {@code _value}). */
  private record Column(int aggregation, String metric, String name) {}

  private record GroupKey(List<String> values, long bucket) {}

  private record TrackerKey(String index, SeriesKey series, long bucket, int column) {}

  /** Bytes counted per group and time bucket, and per output column of one. */
  static final long GROUP_BYTES = 160;

  static final long COLUMN_BYTES = 64;

  private final io.quarry.plugin.api.data.MemoryAccount memory;

  MstatsRun(MstatsCommand command, ZoneId zone, BooleanSupplier stopped) {
    this(command, zone, stopped, io.quarry.plugin.api.data.MemoryAccount.unbounded("mstats"));
  }

  /**
   * As above, counting the states against {@code memory} (the search's account): a group and time
   * bucket {@link #GROUP_BYTES}, each of its columns {@link #COLUMN_BYTES}, a percentile's values 8
   * bytes each, a rate tracker a group's worth.
   */
  MstatsRun(
      MstatsCommand command,
      ZoneId zone,
      BooleanSupplier stopped,
      io.quarry.plugin.api.data.MemoryAccount memory) {
    this.memory = memory;
    this.command = command;
    this.span = command.span().orElse(null);
    this.zone = zone;
    this.stopped = stopped;
    this.patterns = new Pattern[command.aggregations().size()];
    for (int i = 0; i < patterns.length; i++) {
      MetricAggregation aggregation = command.aggregations().get(i);
      if (aggregation.isWildcard()) {
        patterns[i] = glob(aggregation.metric());
      }
    }
  }

  /** The index the next scanned series belong to (for {@code by index}). */
  void index(String name) {
    this.index = name;
  }

  /** Whether a series of metric {@code name} can matter: the store skips the others' chunks. */
  boolean wants(String name) {
    for (int a = 0; a < patterns.length; a++) {
      if (matches(a, name)) {
        return true;
      }
    }
    return false;
  }

  private boolean matches(int aggregation, String metricName) {
    String metric = command.aggregations().get(aggregation).metric();
    if (metric.equals(MetricAggregation.VALUE)) {
      return true;
    }
    return patterns[aggregation] != null
        ? patterns[aggregation].matcher(metricName).matches()
        : metric.equals(metricName);
  }

  @Override
  public boolean stopped() {
    return stopped.getAsBoolean();
  }

  @Override
  public Points series(SeriesKey key) {
    List<String> values = new ArrayList<>(command.groupBy().size());
    for (String field : command.groupBy()) {
      String value = field(key, field);
      if (value == null) {
        return null;
      }
      values.add(value);
    }
    int[] ids = columnsOf(key.metricName());
    if (ids.length == 0) {
      return null;
    }
    List<String> groupValues = List.copyOf(values);
    boolean countsOnly = true;
    for (int id : ids) {
      countsOnly &=
          command.aggregations().get(columns.get(id).aggregation()).function()
              == io.quarry.ql.ast.MetricFunction.COUNT;
    }
    boolean onlyCounts = countsOnly;
    return new Points() {
      // the span bucket [bucket, bucketEnd) of the last point: points come in time order, so
      // most fall in the bucket before and need no floor
      private long bucket = Long.MIN_VALUE;
      private long rangeStart = Long.MIN_VALUE;
      private long bucketEnd = Long.MIN_VALUE;
      private MetricState[] states;
      private final MetricState.RateTracker[] rates = new MetricState.RateTracker[ids.length];

      @Override
      public boolean wholeChunk(long minTime, long maxTime, int count) {
        if (!onlyCounts) {
          return false;
        }
        long at = bucketOf(minTime);
        if (span != null && maxTime >= bucketEnd) {
          return false; // the chunk spans several buckets: count its points one by one
        }
        if (states == null || at != bucket) {
          bucket = at;
          states = state(new GroupKey(groupValues, at));
        }
        for (int id : ids) {
          ((MetricState.Count) states[id]).add(count);
        }
        return true;
      }

      private long bucketOf(long time) {
        if (time >= rangeStart && time < bucketEnd) {
          return span == null ? 0 : rangeStart;
        }
        if (span == null) {
          rangeStart = Long.MIN_VALUE;
          bucketEnd = Long.MAX_VALUE;
          return 0;
        }
        rangeStart = span.floor(time, zone);
        bucketEnd = span.next(rangeStart, zone);
        return rangeStart;
      }

      @Override
      public void point(long time, double value) {
        long at = bucketOf(time);
        if (states == null || at != bucket) {
          bucket = at;
          states = state(new GroupKey(groupValues, at));
          for (int i = 0; i < ids.length; i++) {
            rates[i] =
                columnFunctionPerSeries(ids[i])
                    ? trackers.computeIfAbsent(
                        new TrackerKey(index, key, at, ids[i]),
                        k -> {
                          memory.reserve(GROUP_BYTES, "mstats");
                          return new MetricState.RateTracker();
                        })
                    : null;
          }
        }
        for (int i = 0; i < ids.length; i++) {
          if (rates[i] != null) {
            rates[i].add(time, value);
          } else {
            states[ids[i]].add(time, value);
          }
        }
      }
    };
  }

  private boolean columnFunctionPerSeries(int column) {
    return command.aggregations().get(columns.get(column).aggregation()).function().perSeries();
  }

  private MetricState[] state(GroupKey key) {
    MetricState[] states = groups.get(key);
    if (states == null || states.length < columns.size()) {
      int had = states == null ? 0 : states.length;
      memory.reserve(
          (states == null ? GROUP_BYTES : 0) + COLUMN_BYTES * (columns.size() - had), "mstats");
      MetricState[] grown =
          states == null ? new MetricState[columns.size()] : Arrays.copyOf(states, columns.size());
      for (int c = had; c < grown.length; c++) {
        grown[c] = MetricState.of(command.aggregations().get(columns.get(c).aggregation()), memory);
      }
      groups.put(key, grown);
      states = grown;
    }
    return states;
  }

  private int[] columnsOf(String metricName) {
    List<Integer> ids = new ArrayList<>();
    for (int a = 0; a < patterns.length; a++) {
      if (!matches(a, metricName)) {
        continue;
      }
      MetricAggregation aggregation = command.aggregations().get(a);
      String metric =
          aggregation.metric().equals(MetricAggregation.VALUE)
              ? MetricAggregation.VALUE
              : metricName;
      String name = aggregation.outputName(metric);
      Integer id = columnIds.get(name);
      if (id == null) {
        id = columns.size();
        columnIds.put(name, id);
        columns.add(new Column(a, metric, name));
      }
      if (!ids.contains(id)) {
        ids.add(id);
      }
    }
    return ids.stream().mapToInt(Integer::intValue).toArray();
  }

  private String field(SeriesKey key, String field) {
    if (field.equals(Postings.METRIC_NAME)) {
      return key.metricName();
    }
    if (field.equals("index")) {
      return index;
    }
    return key.dimension(field);
  }

  /**
   * The answer as typed pages of at most {@code pageSize} rows and {@code maxRows} in all: {@code
   * _time} a timestamp column, by-fields string columns, {@code count} long columns, the others
   * double columns (null where a state has no answer). For a search where nothing follows mstats:
   * no row objects.
   */
  List<io.quarry.plugin.api.data.Page> pages(int pageSize, long maxRows) {
    List<Map.Entry<GroupKey, MetricState[]>> sorted = finishGroups();
    int[] order = columnOrder();
    List<io.quarry.plugin.api.data.Schema.Column> schema = new ArrayList<>();
    if (span != null) {
      schema.add(
          new io.quarry.plugin.api.data.Schema.Column(
              "_time", io.quarry.plugin.api.data.DataType.TIMESTAMP));
    }
    for (String field : command.groupBy()) {
      schema.add(
          new io.quarry.plugin.api.data.Schema.Column(
              field, io.quarry.plugin.api.data.DataType.STRING));
    }
    for (int c : order) {
      boolean count =
          command.aggregations().get(columns.get(c).aggregation()).function()
              == io.quarry.ql.ast.MetricFunction.COUNT;
      schema.add(
          new io.quarry.plugin.api.data.Schema.Column(
              columns.get(c).name(),
              count
                  ? io.quarry.plugin.api.data.DataType.LONG
                  : io.quarry.plugin.api.data.DataType.DOUBLE));
    }
    List<io.quarry.plugin.api.data.Page> pages = new ArrayList<>();
    int total = (int) Math.min(sorted.size(), maxRows);
    for (int from = 0; from < total; from += pageSize) {
      int to = Math.min(total, from + pageSize);
      List<io.quarry.plugin.api.data.Block> blocks = new ArrayList<>();
      if (span != null) {
        io.quarry.plugin.api.data.LongBlock.Builder times =
            io.quarry.plugin.api.data.LongBlock.builder(
                io.quarry.plugin.api.data.DataType.TIMESTAMP, to - from);
        for (int r = from; r < to; r++) {
          times.append(sorted.get(r).getKey().bucket());
        }
        blocks.add(times.build());
      }
      for (int f = 0; f < command.groupBy().size(); f++) {
        io.quarry.plugin.api.data.BytesBlock.Builder values =
            io.quarry.plugin.api.data.BytesBlock.builder(to - from);
        for (int r = from; r < to; r++) {
          values.append(sorted.get(r).getKey().values().get(f));
        }
        blocks.add(values.build());
      }
      for (int i = 0; i < order.length; i++) {
        int c = order[i];
        boolean count =
            schema.get(schema.size() - order.length + i).type()
                == io.quarry.plugin.api.data.DataType.LONG;
        if (count) {
          io.quarry.plugin.api.data.LongBlock.Builder values =
              io.quarry.plugin.api.data.LongBlock.builder(
                  io.quarry.plugin.api.data.DataType.LONG, to - from);
          for (int r = from; r < to; r++) {
            MetricState[] states = sorted.get(r).getValue();
            values.appendNullable(c < states.length ? (Long) states[c].result() : null);
          }
          blocks.add(values.build());
        } else {
          io.quarry.plugin.api.data.DoubleBlock.Builder values =
              io.quarry.plugin.api.data.DoubleBlock.builder(to - from);
          for (int r = from; r < to; r++) {
            MetricState[] states = sorted.get(r).getValue();
            values.appendNullable(c < states.length ? (Double) states[c].result() : null);
          }
          blocks.add(values.build());
        }
      }
      pages.add(
          new io.quarry.plugin.api.data.Page(new io.quarry.plugin.api.data.Schema(schema), blocks));
    }
    return pages;
  }

  /** Folds the rate trackers into their groups; the groups in output order. */
  private List<Map.Entry<GroupKey, MetricState[]>> finishGroups() {
    for (Map.Entry<TrackerKey, MetricState.RateTracker> tracker : trackers.entrySet()) {
      double rate = tracker.getValue().rate();
      if (Double.isNaN(rate)) {
        continue;
      }
      // the tracker's group: its series' by-field values and bucket
      TrackerKey key = tracker.getKey();
      List<String> values = new ArrayList<>();
      String saved = index;
      index = key.index();
      for (String field : command.groupBy()) {
        values.add(field(key.series(), field));
      }
      index = saved;
      MetricState[] states = state(new GroupKey(List.copyOf(values), key.bucket()));
      ((MetricState.Rates) states[key.column()]).addRate(rate);
    }
    trackers.clear();
    List<Map.Entry<GroupKey, MetricState[]>> sorted = new ArrayList<>(groups.entrySet());
    sorted.sort(Map.Entry.comparingByKey(GROUP_ORDER));
    return sorted;
  }

  /** Output columns: by aggregation, then (for a pattern) by metric name. */
  private int[] columnOrder() {
    Integer[] order = new Integer[columns.size()];
    Arrays.setAll(order, i -> i);
    Arrays.sort(
        order,
        Comparator.comparingInt((Integer c) -> columns.get(c).aggregation())
            .thenComparing(c -> columns.get(c).metric()));
    return Arrays.stream(order).mapToInt(Integer::intValue).toArray();
  }

  /** The answer, once every index was scanned. */
  List<Row> rows() {
    List<Map.Entry<GroupKey, MetricState[]>> sorted = finishGroups();
    int[] order = columnOrder();
    List<Row> rows = new ArrayList<>(sorted.size());
    for (Map.Entry<GroupKey, MetricState[]> group : sorted) {
      Map<String, Object> row = new LinkedHashMap<>();
      if (span != null) {
        row.put("_time", group.getKey().bucket());
      }
      for (int i = 0; i < command.groupBy().size(); i++) {
        row.put(command.groupBy().get(i), group.getKey().values().get(i));
      }
      MetricState[] states = group.getValue();
      for (int c : order) {
        Object value = c < states.length ? states[c].result() : null;
        if (value != null) {
          row.put(columns.get(c).name(), value);
        }
      }
      rows.add(new MapRow(row));
    }
    return rows;
  }

  private static final Comparator<GroupKey> GROUP_ORDER =
      (a, b) -> {
        int byTime = Long.compare(a.bucket(), b.bucket());
        if (byTime != 0) {
          return byTime;
        }
        for (int i = 0; i < a.values().size(); i++) {
          int byValue = a.values().get(i).compareTo(b.values().get(i));
          if (byValue != 0) {
            return byValue;
          }
        }
        return 0;
      };

  /** A metric name pattern: {@code *} any characters, everything else literal. */
  static Pattern glob(String pattern) {
    StringBuilder regex = new StringBuilder();
    for (String part : pattern.split("\\*", -1)) {
      if (!regex.isEmpty() || pattern.startsWith("*")) {
        regex.append(".*");
      }
      regex.append(Pattern.quote(part));
    }
    return Pattern.compile(regex.toString());
  }
}
