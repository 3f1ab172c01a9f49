package io.quarry.ql.exec;

import io.quarry.ql.ast.ChartCommand;
import io.quarry.ql.ast.Span;
import io.quarry.ql.ast.TimechartCommand;
import io.quarry.ql.engine.aggregation.HashAggregationOperator;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * The end of {@code timechart}/{@code chart} on pages ({@link ChartAggregation}): the groups by
 * (bucket, series) regrouped state by state ({@link HashAggregationOperator#regrouped}) — buckets
 * coarsened to the span chosen from the time range ({@code bins}), the over-field or the split
 * field binned by their range, series beyond the limit or the where clause folded into {@code
 * OTHER} or dropped — then pivoted by {@link ChartPivot} into one wide row per bucket or
 * over-value, empty buckets filled with {@code cont}, made one at a time as they are asked for.
 */
final class ChartEnd {
  private static final String OTHER = ChartPivot.OTHER;
  private static final String NULL = ChartPivot.NULL;
  private static final String TIME = TimeField.NAME;

  private final TimechartCommand command;
  private final ChartCommand chart; // null for timechart
  private final String overField; // null for timechart
  private final ZoneId zone;
  private final Span baseSpan;
  private final ChartPivot pivot;

  ChartEnd(
      TimechartCommand command, ChartCommand chart, String overField, ZoneId zone, Span baseSpan) {
    this.command = command;
    this.chart = chart;
    this.overField = overField;
    this.zone = zone;
    this.baseSpan = baseSpan;
    this.pivot = new ChartPivot(command, overField);
  }

  /**
   * The wide rows of {@code groups} (not consumed) as their cells by column ({@link
   * ChartPivot#cells}), regrouped operators counted by {@code tracker}.
   */
  Iterator<Map<String, Object>> rows(HashAggregationOperator groups, MemoryTracker tracker) {
    return new Pivoted(groups, tracker).rows();
  }

  /**
   * The end on one set of groups (the final ones, or a preview's copy): each regroup makes a new
   * operator and closes the one before (not the first: its owner closes it).
   */
  private final class Pivoted {
    private final HashAggregationOperator first;
    private final MemoryTracker tracker;
    private HashAggregationOperator groups;

    Pivoted(HashAggregationOperator groups, MemoryTracker tracker) {
      this.first = groups;
      this.groups = groups;
      this.tracker = tracker;
    }

    private void regroup(UnaryOperator<List<String>> newKey) {
      HashAggregationOperator moved = groups.regrouped(newKey, tracker.sibling());
      if (groups != first) {
        groups.close();
      }
      groups = moved;
    }

    private Set<List<Object>> keys() {
      Set<List<Object>> keys = new HashSet<>();
      for (int id = 0; id < groups.groupCount(); id++) {
        keys.add(List.copyOf(groups.key(id)));
      }
      return keys;
    }

    /**
     * Group {@code id}'s results by aggregation output name as {@link ChartPivot#cell}s (none left
     * out; a name given twice holds the later aggregation's).
     */
    private Map<String, Object> results(int id) {
      List<io.quarry.ql.ast.Aggregation> aggregations = command.aggregations();
      Map<String, Object> results = new HashMap<>();
      for (int f = 0; f < aggregations.size(); f++) {
        Object result = ChartPivot.cell(groups.result(id, f));
        if (result != null) {
          results.put(aggregations.get(f).outputName(), result);
        }
      }
      return results;
    }

    Iterator<Map<String, Object>> rows() {
      Span span = overField != null ? overSpan() : command.span().orElseGet(this::chooseSpan);
      if (overField == null && command.span().isEmpty() && span.amount() != baseSpan.amount()) {
        regroup(
            key -> withBucket(key, Long.toString(span.floor(Long.parseLong(key.get(0)), zone))));
      }
      binSplitByRange();
      Set<String> kept = keptSeries();
      Set<Object> allKeys = new HashSet<>(); // rows stay when their series are dropped
      if (kept != null && !command.useOther()) {
        for (int id = 0; id < groups.groupCount(); id++) {
          String key = groups.key(id).get(0);
          allKeys.add(overField == null ? (Object) Long.parseLong(key) : key);
        }
      }
      if (kept != null) {
        regroup(
            key ->
                kept.contains(key.get(1))
                    ? key
                    : command.useOther() ? List.of(key.get(0), OTHER) : null);
      }
      TreeMap<Object, Map<String, Object>> rows =
          new TreeMap<>(
              overField == null
                  ? (a, b) -> Long.compare((Long) a, (Long) b)
                  : span != null && !span.isTime() ? OverBins.ORDER : Values.NATURAL_ORDER);
      ChartPivot.Collector collector = pivot.collect(rows);
      for (int id = 0; id < groups.groupCount(); id++) {
        List<String> key = groups.key(id);
        collector.add(key.get(0), key.size() > 1 ? key.get(1) : null, results(id));
      }
      List<String> seriesOrder = collector.seriesOrder();
      if (groups != first) {
        groups.close();
      }
      allKeys.forEach(key -> rows.putIfAbsent(key, new HashMap<>()));
      Map<String, io.quarry.ql.ast.Aggregation> columns = pivot.columns(seriesOrder);
      if (overField != null) {
        if (span != null && command.layout().cont()) {
          OverBins.fill(rows, span, overField, zone);
        }
        Iterator<Map.Entry<Object, Map<String, Object>>> entries = rows.entrySet().iterator();
        return new Iterator<>() {
          @Override
          public boolean hasNext() {
            return entries.hasNext();
          }

          @Override
          public Map<String, Object> next() {
            Map.Entry<Object, Map<String, Object>> entry = entries.next();
            Object over = TimeField.groupValue(overField, entry.getKey());
            return pivot.cells(overField, over, entry.getValue(), columns, Double.NaN);
          }
        };
      }
      return new TimeRows(rows, span, columns);
    }

    /** The smallest automatic span giving at most {@code bins} buckets; a minute at least. */
    private Span chooseSpan() {
      long first = Long.MAX_VALUE;
      long last = Long.MIN_VALUE;
      for (int id = 0; id < groups.groupCount(); id++) {
        long time = Long.parseLong(groups.key(id).get(0));
        first = Math.min(first, time);
        last = Math.max(last, time);
      }
      if (first == Long.MAX_VALUE) {
        return baseSpan;
      }
      return Span.automatic(first, last, command.bins(), 60, zone);
    }

    /** The span the over-field is binned by (given, or chosen from its range); null if none. */
    private Span overSpan() {
      if (chart == null || !chart.binsOver()) {
        return null;
      }
      if (chart.overSpan().isPresent()) {
        return chart.overSpan().get();
      }
      Span span = OverBins.choose(keys(), overField, chart.overBins(), zone);
      if (span != null) {
        regroup(key -> withBucket(key, OverBins.binText(span, overField, key.get(0), zone)));
      }
      return span;
    }

    /** {@code by f bins=N}: the series moved into the bins their numbers' range asks for. */
    private void binSplitByRange() {
      if (command.by().isEmpty()
          || command.layout().splitSpan().isPresent()
          || command.layout().splitBins() == 0) {
        return;
      }
      String field = command.by().get();
      Span span = OverBins.choose(keys(), 1, field, command.layout().splitBins(), zone);
      if (span != null) {
        regroup(
            key -> {
              if (key.get(1).equals(NULL)) {
                return key;
              }
              List<String> moved = new ArrayList<>(key);
              moved.set(1, OverBins.binText(span, field, key.get(1), zone));
              return moved;
            });
      }
    }

    /** The series to keep by name, or null to keep all. */
    private Set<String> keptSeries() {
      if (command.by().isEmpty()) {
        return null;
      }
      String ranked = command.aggregations().get(0).outputName();
      List<String> series = new ArrayList<>(groups.groupCount());
      List<Object> values = new ArrayList<>(groups.groupCount());
      for (int id = 0; id < groups.groupCount(); id++) {
        series.add(groups.key(id).get(1));
        values.add(results(id).get(ranked));
      }
      return SeriesSelection.kept(series, values, command);
    }
  }

  private static List<String> withBucket(List<String> key, String bucket) {
    List<String> moved = new ArrayList<>(key);
    moved.set(0, bucket);
    return moved;
  }

  /**
   * Timechart's rows: every bucket from the first to the last, empty ones only with {@code cont}.
   */
  private final class TimeRows implements Iterator<Map<String, Object>> {
    private final TreeMap<Object, Map<String, Object>> rows;
    private final Span span;
    private final Map<String, io.quarry.ql.ast.Aggregation> columns;
    private final long last;
    private long start;

    TimeRows(
        TreeMap<Object, Map<String, Object>> rows,
        Span span,
        Map<String, io.quarry.ql.ast.Aggregation> columns) {
      this.rows = rows;
      this.span = span;
      this.columns = columns;
      this.start = rows.isEmpty() ? 1 : (Long) rows.firstKey();
      this.last = rows.isEmpty() ? 0 : (Long) rows.lastKey();
      skipEmpty();
    }

    private void skipEmpty() {
      while (start <= last && !command.layout().cont() && rows.get(start) == null) {
        start = span.next(start, zone);
      }
    }

    @Override
    public boolean hasNext() {
      return start <= last;
    }

    @Override
    public Map<String, Object> next() {
      long next = span.next(start, zone);
      double seconds = (next - start) / 1_000_000d;
      Map<String, Object> values = rows.get(start);
      Map<String, Object> row =
          pivot.cells(TIME, start, values == null ? Map.of() : values, columns, seconds);
      start = next;
      skipEmpty();
      return row;
    }
  }
}
