package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.ChartCommand;
import io.quarry.ql.ast.Span;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.ast.TimechartCommand;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code timechart}: a {@code stats} by time bucket (and series), pivoted into one row per bucket
 * with one column per series. Without {@code span=}, rows are first counted per minute and the
 * buckets coarsened at the end to the smallest of Splunk's usual spans that gives at most {@code
 * bins} buckets (the accumulators merge, so every function stays exact). The series kept are chosen
 * by the where clause, by default the {@code limit} with the largest sums of their values ({@link
 * SeriesSelection}); the rest merge into {@code OTHER} ({@code useother=true}) or are dropped;
 * events without the by-field form the {@code NULL} series ({@code usenull=true}). Buckets between
 * the first and the last with no events are filled ({@code cont=true}): {@code count} and {@code
 * dc} with 0, other functions with null. {@code chart}'s over-field may be binned ({@code span=},
 * or {@code bins=} chosen from its range at the end, as {@code bin} chooses).
 */
public final class TimechartOperator implements Aggregator {
  private static final String OTHER = ChartPivot.OTHER;
  private static final String NULL = ChartPivot.NULL;
  private static final String TIME = TimeField.NAME;

  /**
   * The bucket's field in the inner {@code stats}: not {@code _time}, so that aggregations over
   * {@code _time} (and first/last/earliest/latest, which order by it) see each event's own time.
   */
  private static final String BUCKET = "\u0000bucket";

  private static final String SERIES = "\u0000series";

  private final TimechartCommand command;

  /** {@code chart}'s over-field, whose values make the rows; null for timechart (time buckets). */
  private final String overField;

  private final ZoneId zone;
  private final RowSink downstream;
  private final Span baseSpan;
  private final StatsOperator buckets;
  private final ChartPivot pivot;

  /** {@code chart}'s command (its over-field's bins); null for timechart. */
  private final ChartCommand chart;

  public TimechartOperator(TimechartCommand command, ZoneId zone, RowSink downstream) {
    this(command, null, null, zone, downstream, MemoryTracker.unbounded("timechart"));
  }

  /** As above, its buckets counted by {@code memory}. */
  public TimechartOperator(
      TimechartCommand command, ZoneId zone, RowSink downstream, MemoryTracker memory) {
    this(command, null, null, zone, downstream, memory);
  }

  /**
   * {@code chart … over X [by Y]}: the same pivot with one row per value of X (in value order, no
   * filling) instead of one per time bucket.
   */
  public static TimechartOperator chart(ChartCommand chart, ZoneId zone, RowSink downstream) {
    return chart(chart, zone, downstream, MemoryTracker.unbounded("chart"));
  }

  /** As above, its groups counted by {@code memory}. */
  public static TimechartOperator chart(
      ChartCommand chart, ZoneId zone, RowSink downstream, MemoryTracker memory) {
    return new TimechartOperator(
        chart.asTimechart(), chart, chart.over(), zone, downstream, memory);
  }

  private final MemoryTracker memory;

  private TimechartOperator(
      TimechartCommand command,
      ChartCommand chart,
      String overField,
      ZoneId zone,
      RowSink downstream,
      MemoryTracker memory) {
    this.memory = requireNonNull(memory, "memory is null");
    this.command = requireNonNull(command, "command is null");
    this.chart = chart;
    this.overField = overField;
    this.zone = requireNonNull(zone, "zone is null");
    this.downstream = requireNonNull(downstream, "downstream is null");
    this.baseSpan = command.span().orElse(Span.ofSeconds(60));
    this.pivot = new ChartPivot(command, overField);
    List<String> groupBy = command.by().isPresent() ? List.of(BUCKET, SERIES) : List.of(BUCKET);
    this.buckets =
        new StatsOperator(
            new StatsCommand(command.aggregations(), groupBy, command.position()), PARTIAL, memory);
  }

  @Override
  public Aggregator newPartial() {
    return new TimechartOperator(command, chart, overField, zone, PARTIAL, memory.sibling());
  }

  @Override
  public boolean partialsOutliveMerges() {
    return true;
  }

  @Override
  public void merge(Aggregator other) {
    if (!(other instanceof TimechartOperator partial)
        || !partial.command.equals(command)
        || !java.util.Objects.equals(partial.overField, overField)) {
      throw new IllegalArgumentException("cannot merge another timechart");
    }
    buckets.merge(partial.buckets);
  }

  @Override
  public boolean accept(Row row) {
    Map<String, Object> assigned = new HashMap<>();
    if (overField != null) {
      List<Object> over = row.values(overField);
      if (over.isEmpty()) {
        return true; // chart rows need the over-field
      }
      assigned.put(BUCKET, overKey(over));
    } else {
      List<Object> times = row.values(TIME);
      if (times.isEmpty() || !(times.get(0) instanceof Long micros)) {
        return true; // timechart needs a time
      }
      assigned.put(BUCKET, baseSpan.floor(micros, zone));
    }
    if (command.by().isPresent()) {
      List<Object> series = row.values(command.by().get());
      if (series.isEmpty()) {
        if (!command.useNull()) {
          return true;
        }
        assigned.put(SERIES, NULL);
      } else {
        assigned.put(SERIES, seriesKey(series));
      }
    }
    buckets.accept(new AssignedRow(row, assigned));
    return true;
  }

  /** The split field's value(s) as group key(s), binned (as text) by a given span. */
  private Object seriesKey(List<Object> series) {
    Span span = command.layout().splitSpan().orElse(null);
    if (span == null) {
      return series.size() == 1 ? series.get(0) : series;
    }
    List<Object> keys = new ArrayList<>(series.size());
    for (Object value : series) {
      keys.add(Values.toText(Bins.bin(span, command.by().get(), value, zone)));
    }
    return keys.size() == 1 ? keys.get(0) : keys;
  }

  /** The over-field's value(s) as group key(s), binned by a given span. */
  private Object overKey(List<Object> over) {
    Span span = chart.overSpan().orElse(null);
    List<Object> keys = new ArrayList<>(over.size());
    for (Object value : over) {
      keys.add(Values.toText(span == null ? value : Bins.bin(span, overField, value, zone)));
    }
    return keys.size() == 1 ? keys.get(0) : keys;
  }

  /**
   * Emits the chart of the rows so far into {@code target} from a copy of the buckets (finishing
   * regroups them), so the search goes on; the copy is transient and not counted against the
   * search's memory.
   */
  @Override
  public boolean snapshot(RowSink target) {
    TimechartOperator copy =
        new TimechartOperator(
            command, chart, overField, zone, target, MemoryTracker.unbounded("timechart preview"));
    copy.buckets.addCopyOf(buckets);
    copy.finish();
    return true;
  }

  @Override
  public void finish() {
    Span span = overField != null ? overSpan() : command.span().orElseGet(this::chooseSpan);
    if (overField == null && command.span().isEmpty() && span.amount() != baseSpan.amount()) {
      buckets.regroup(key -> withTime(key, span.floor(Long.parseLong((String) key.get(0)), zone)));
    }
    binSplitByRange();
    Set<String> kept = keptSeries();
    Set<Object> allKeys = new java.util.HashSet<>(); // rows stay when their series are dropped
    if (kept != null && !command.useOther()) {
      for (List<Object> key : buckets.groupKeys()) {
        allKeys.add(overField == null ? (Object) Long.parseLong((String) key.get(0)) : key.get(0));
      }
    }
    if (kept != null) {
      buckets.regroup(
          key -> {
            String series = (String) key.get(1);
            if (kept.contains(series)) {
              return key;
            }
            return command.useOther() ? List.of(key.get(0), OTHER) : null;
          });
    }
    // one wide row per bucket (or per over-value)
    TreeMap<Object, Map<String, Object>> rows =
        new TreeMap<>(
            overField == null
                ? (a, b) -> Long.compare((Long) a, (Long) b)
                : span != null && !span.isTime() ? OverBins.ORDER : Values.NATURAL_ORDER);
    ChartPivot.Collector collector = pivot.collect(rows);
    StatsOperator result = new StatsOperator(statsOf(buckets), groupsInto(collector));
    result.merge(buckets);
    result.finish();
    List<String> seriesOrder = collector.seriesOrder();
    allKeys.forEach(key -> rows.putIfAbsent(key, new HashMap<>()));
    Map<String, Aggregation> columns = pivot.columns(seriesOrder);
    if (overField != null) {
      if (span != null && command.layout().cont()) {
        OverBins.fill(rows, span, overField, zone);
      }
      for (Map.Entry<Object, Map<String, Object>> entry : rows.entrySet()) {
        Object over = TimeField.groupValue(overField, entry.getKey());
        if (!emit(overField, over, entry.getValue(), columns, Double.NaN)) {
          break;
        }
      }
    } else if (!rows.isEmpty()) {
      long last = (Long) rows.lastKey();
      for (long start = (Long) rows.firstKey(); start <= last; start = span.next(start, zone)) {
        double seconds = (span.next(start, zone) - start) / 1_000_000d;
        Map<String, Object> values = rows.get(start);
        if (values == null && !command.layout().cont()) {
          continue;
        }
        if (!emit(TIME, start, values == null ? Map.of() : values, columns, seconds)) {
          break;
        }
      }
    }
    downstream.finish();
  }

  private boolean emit(
      String keyField,
      Object key,
      Map<String, Object> values,
      Map<String, Aggregation> columns,
      double bucketSeconds) {
    return downstream.accept(
        new MapRow(pivot.cells(keyField, key, values, columns, bucketSeconds)));
  }

  private static List<Object> withTime(List<Object> key, long time) {
    List<Object> moved = new ArrayList<>(key);
    moved.set(0, Long.toString(time));
    return moved;
  }

  /**
   * The smallest automatic span ({@link Span#automatic}) that gives at most {@code bins} buckets; a
   * minute at least, the span rows were grouped by before the range was known.
   */
  private Span chooseSpan() {
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (List<Object> key : buckets.groupKeys()) {
      long time = Long.parseLong((String) key.get(0));
      first = Math.min(first, time);
      last = Math.max(last, time);
    }
    if (first == Long.MAX_VALUE) {
      return baseSpan;
    }
    return Span.automatic(first, last, command.bins(), 60, zone);
  }

  /**
   * The span {@code chart}'s over-field is binned by: the given one, or one chosen from the range
   * of its numbers ({@code bins=}), the groups then moved into its bins; null when not binned.
   */
  private Span overSpan() {
    if (chart == null || !chart.binsOver()) {
      return null;
    }
    if (chart.overSpan().isPresent()) {
      return chart.overSpan().get();
    }
    Span span = OverBins.choose(buckets.groupKeys(), overField, chart.overBins(), zone);
    if (span != null) {
      buckets.regroup(
          key -> {
            List<Object> moved = new ArrayList<>(key);
            moved.set(0, OverBins.binText(span, overField, (String) key.get(0), zone));
            return moved;
          });
    }
    return span;
  }

  /** {@code by f bins=N}: the series moved into the bins the range of their numbers asks for. */
  private void binSplitByRange() {
    if (command.by().isEmpty()
        || command.layout().splitSpan().isPresent()
        || command.layout().splitBins() == 0) {
      return;
    }
    String field = command.by().get();
    Span span = OverBins.choose(buckets.groupKeys(), 1, field, command.layout().splitBins(), zone);
    if (span != null) {
      buckets.regroup(
          key -> {
            String series = (String) key.get(1);
            if (series.equals(NULL)) {
              return key;
            }
            List<Object> moved = new ArrayList<>(key);
            moved.set(1, OverBins.binText(span, field, series, zone));
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
    List<String> series = new ArrayList<>();
    List<Object> values = new ArrayList<>();
    buckets.snapshot(
        new RowSink() {
          @Override
          public boolean accept(Row row) {
            series.add(Values.toText(row.values(SERIES).get(0)));
            values.add(ChartPivot.cell(row.values(ranked)));
            return true;
          }

          @Override
          public void finish() {}
        });
    return SeriesSelection.kept(series, values, command);
  }

  /** The inner stats' rows, bucket, series and results, into the pivot's collector. */
  private RowSink groupsInto(ChartPivot.Collector collector) {
    return new RowSink() {
      @Override
      public boolean accept(Row row) {
        Map<String, Object> results = new HashMap<>();
        for (Aggregation aggregation : command.aggregations()) {
          Object value = ChartPivot.cell(row.values(aggregation.outputName()));
          if (value != null) {
            results.put(aggregation.outputName(), value);
          }
        }
        String series = command.by().isPresent() ? Values.toText(row.values(SERIES).get(0)) : null;
        collector.add(Values.toText(row.values(BUCKET).get(0)), series, results);
        return true;
      }

      @Override
      public void finish() {}
    };
  }

  private static StatsCommand statsOf(StatsOperator operator) {
    return operator.command();
  }
}
