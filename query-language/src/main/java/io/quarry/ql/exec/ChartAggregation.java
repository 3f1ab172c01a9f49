package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.ChartCommand;
import io.quarry.ql.ast.SeriesFilter;
import io.quarry.ql.ast.Span;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.ast.TimechartCommand;
import io.quarry.ql.engine.aggregation.HashAggregationOperator;
import io.quarry.ql.engine.aggregation.PageAggregator;
import java.time.ZoneId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * {@code timechart} and {@code chart} on pages: a {@link HashAggregationOperator} by (bucket,
 * series) — each page given a bucket column (its {@code _time} floored to the base span, or {@code
 * chart}'s over-field, binned when asked) and a series column (the split field's values, binned
 * when asked, {@code NULL} where it has none and {@code usenull=true}) — whose partials merge as
 * {@code stats}' do. At the end the groups are regrouped state by state ({@link
 * HashAggregationOperator#regrouped}): buckets coarsened to the span chosen from the time range
 * ({@code bins}), the split field binned by its range, series beyond {@code limit} (or the where
 * clause) folded into {@code OTHER} or dropped; then pivoted ({@link ChartPivot}) into one row per
 * bucket (or over-value) with a column per series, empty buckets filled ({@code cont}). Every step
 * is {@link TimechartOperator}'s, so the answers are the row command's row for row; the wide rows
 * leave as pages of at most {@code pageSize}, made as they are asked for.
 */
public final class ChartAggregation implements PageAggregator {
  private static final String OTHER = ChartPivot.OTHER;
  private static final String NULL = ChartPivot.NULL;
  private static final String TIME = TimeField.NAME;
  private static final String BUCKET = "\u0000bucket";
  private static final String SERIES = "\u0000series";

  private final TimechartCommand command;
  private final ChartCommand chart; // null for timechart
  private final String overField; // chart's over-field, null for timechart
  private final ZoneId zone;
  private final MemoryTracker memory;
  private final int pageSize;
  private final Span baseSpan;
  private final ChartPivot pivot;
  private final HashAggregationOperator buckets;
  private final Deque<Page> output = new ArrayDeque<>();
  private Iterator<Row> wideRows; // after finish: the answer, made as pages are asked for
  private boolean finishing;

  /** {@code timechart}. */
  public ChartAggregation(
      TimechartCommand command, ZoneId zone, MemoryTracker memory, int pageSize) {
    this(command, null, null, zone, memory, pageSize);
  }

  /** {@code chart … over X [by Y]}: one row per value of X, in value order. */
  public static ChartAggregation chart(
      ChartCommand chart, ZoneId zone, MemoryTracker memory, int pageSize) {
    return new ChartAggregation(
        TimechartOperator.asTimechart(chart), chart, chart.over(), zone, memory, pageSize);
  }

  private ChartAggregation(
      TimechartCommand command,
      ChartCommand chart,
      String overField,
      ZoneId zone,
      MemoryTracker memory,
      int pageSize) {
    this.command = requireNonNull(command, "command is null");
    this.chart = chart;
    this.overField = overField;
    this.zone = requireNonNull(zone, "zone is null");
    this.memory = requireNonNull(memory, "memory is null");
    this.pageSize = pageSize;
    this.baseSpan = command.span().orElse(Span.ofSeconds(60));
    this.pivot = new ChartPivot(command, overField, BUCKET, SERIES);
    this.buckets = new HashAggregationOperator(inner(command), memory, pageSize);
  }

  /** The {@code stats} under the chart: its aggregations by bucket (and series). */
  private static StatsCommand inner(TimechartCommand command) {
    return new StatsCommand(
        command.aggregations(),
        command.by().isPresent() ? List.of(BUCKET, SERIES) : List.of(BUCKET),
        command.position());
  }

  /** Whether every aggregation of the chart has a page implementation. */
  public static boolean supports(TimechartCommand command) {
    return HashAggregationOperator.supports(inner(command));
  }

  /** Whether every aggregation of the chart has a page implementation. */
  public static boolean supports(ChartCommand command) {
    return supports(TimechartOperator.asTimechart(command));
  }

  /** The fields a timechart reads: {@code _time}, the split field, the aggregations' fields. */
  public static List<String> inputFields(TimechartCommand command) {
    return inputFields(command, TIME);
  }

  /** The fields a chart reads: its over-field, the split field, the aggregations' fields. */
  public static List<String> inputFields(ChartCommand chart) {
    return inputFields(TimechartOperator.asTimechart(chart), chart.over());
  }

  private static List<String> inputFields(TimechartCommand command, String rowField) {
    List<String> fields = new ArrayList<>();
    fields.add(rowField);
    command.by().filter(f -> !fields.contains(f)).ifPresent(fields::add);
    for (String field : HashAggregationOperator.inputFields(inner(command))) {
      if (!field.equals(BUCKET) && !field.equals(SERIES) && !fields.contains(field)) {
        fields.add(field);
      }
    }
    return fields;
  }

  @Override
  public ChartAggregation newPartial() {
    return new ChartAggregation(command, chart, overField, zone, memory.sibling(), pageSize);
  }

  @Override
  public boolean needsInput() {
    return !finishing;
  }

  @Override
  public void addInput(Page page) {
    if (finishing) {
      throw new IllegalStateException("input after finish");
    }
    Block bucket = overField == null ? timeBuckets(page) : overKeys(page);
    if (bucket == null) {
      return; // no position has a row key: nothing counted
    }
    Page keyed = page.withColumn(BUCKET, bucket);
    if (command.by().isPresent()) {
      Block series = seriesKeys(page);
      if (series == null) {
        return;
      }
      keyed = keyed.withColumn(SERIES, series);
    }
    buckets.addInput(keyed);
  }

  /**
   * Each position's {@code _time} floored to the base span (as {@code bin}'s page stage: a bucket
   * reused while events stay in it); null where it has no time.
   */
  private Block timeBuckets(Page page) {
    if (!(page.block(TIME) instanceof LongBlock times)) {
      return null; // timechart needs a time (a number of microseconds)
    }
    int count = page.positionCount();
    LongBlock.Builder builder = LongBlock.builder(DataType.LONG, count);
    long start = 0; // the last bucket found, [start, end): neighbouring events mostly share it
    long end = Long.MIN_VALUE;
    for (int p = 0; p < count; p++) {
      if (times.getValueCount(p) == 0) {
        builder.appendNull();
        continue;
      }
      long micros = times.getLongValue(times.getFirstValueIndex(p));
      if (micros < start || micros >= end) {
        start = baseSpan.floor(micros, zone);
        end = baseSpan.next(start, zone);
      }
      builder.append(start);
    }
    return builder.build();
  }

  /** {@code chart}'s over-field as the row key, binned by a given span; null without the field. */
  private Block overKeys(Page page) {
    Block over = page.block(overField);
    if (over == null) {
      return null; // chart rows need the over-field
    }
    Span span = chart.overSpan().orElse(null);
    return span == null
        ? over
        : texts(over, over.positionCount(), false, v -> BinOperator.bin(span, overField, v, zone));
  }

  /**
   * The split field's values as the series key: binned by a given span; {@code NULL} where it has
   * none ({@code usenull=true}), else no group there. Null when no position has a series.
   */
  private Block seriesKeys(Page page) {
    String field = command.by().get();
    Block series = page.block(field);
    Span span = command.layout().splitSpan().orElse(null);
    int count = page.positionCount();
    if (span != null) {
      return texts(series, count, command.useNull(), v -> BinOperator.bin(span, field, v, zone));
    }
    if (series != null && (!command.useNull() || !hasNulls(series))) {
      return series; // keyed by its values' texts as they are
    }
    return command.useNull() ? texts(series, count, true, UnaryOperator.identity()) : null;
  }

  private static boolean hasNulls(Block block) {
    for (int p = 0; p < block.positionCount(); p++) {
      if (block.getValueCount(p) == 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * A text block of {@code count} positions: each value of {@code values} (null: none anywhere)
   * mapped by {@code map}, as the row command keys it; a position without values is {@code NULL}
   * when {@code nullSeries}, else null.
   */
  private static Block texts(
      Block values, int count, boolean nullSeries, UnaryOperator<Object> map) {
    BytesBlock.Builder builder = BytesBlock.builder(count);
    for (int p = 0; p < count; p++) {
      List<Object> each = values == null ? List.of() : values.getValues(p);
      if (each.isEmpty()) {
        if (nullSeries) {
          builder.append(NULL);
        } else {
          builder.appendNull();
        }
      } else if (each.size() == 1) {
        builder.append(Values.toText(map.apply(each.get(0))));
      } else {
        builder.beginPositionEntry();
        for (Object value : each) {
          builder.append(Values.toText(map.apply(value)));
        }
        builder.endPositionEntry();
      }
    }
    return builder.build();
  }

  @Override
  public void merge(PageAggregator other) {
    if (!(other instanceof ChartAggregation partial)
        || !partial.command.equals(command)
        || !java.util.Objects.equals(partial.overField, overField)) {
      throw new IllegalArgumentException("cannot merge another chart");
    }
    buckets.merge(partial.buckets);
  }

  @Override
  public void finish() {
    if (!finishing) {
      finishing = true;
      wideRows = new Pivoted(buckets, memory).rows();
    }
  }

  /** The chart of the input so far, from a copy of the groups (the search goes on). */
  @Override
  public List<Page> snapshot() {
    MemoryTracker untracked = MemoryTracker.unbounded("chart preview");
    Iterator<Row> rows = new Pivoted(buckets.regrouped(key -> key, untracked), untracked).rows();
    List<Page> pages = new ArrayList<>();
    for (Page page = next(rows); page != null; page = next(rows)) {
      pages.add(page);
    }
    return pages;
  }

  private Page next(Iterator<Row> rows) {
    List<Row> taken = new ArrayList<>();
    while (taken.size() < pageSize && rows.hasNext()) {
      taken.add(rows.next());
    }
    return taken.isEmpty() ? null : PageCollector.toPage(taken);
  }

  @Override
  public boolean isFinished() {
    return finishing && !wideRows.hasNext() && output.isEmpty();
  }

  @Override
  public Page getOutput() {
    if (!finishing) {
      return null;
    }
    Page page = output.poll();
    return page != null ? page : next(wideRows);
  }

  @Override
  public void close() {
    output.clear();
    buckets.close();
    memory.release();
  }

  /**
   * The chart's end on one set of groups (the final ones, or a preview's copy): each regroup makes
   * a new operator and closes the one before (not the first: its owner closes it).
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

    /** Every group as a row of the inner stats: bucket, series, each aggregation's result. */
    private void groupRows(RowSink sink) {
      List<io.quarry.ql.ast.Aggregation> aggregations = command.aggregations();
      for (int id = 0; id < groups.groupCount(); id++) {
        List<String> key = groups.key(id);
        Map<String, Object> values = new HashMap<>();
        values.put(BUCKET, key.get(0));
        if (key.size() > 1) {
          values.put(SERIES, key.get(1));
        }
        for (int f = 0; f < aggregations.size(); f++) {
          Object result = groups.result(id, f);
          if (result != null) {
            values.put(aggregations.get(f).outputName(), result);
          }
        }
        sink.accept(new MapRow(values));
      }
      sink.finish();
    }

    Iterator<Row> rows() {
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
      List<String> seriesOrder = new ArrayList<>();
      groupRows(pivot.collect(rows, seriesOrder));
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
          public Row next() {
            Map.Entry<Object, Map<String, Object>> entry = entries.next();
            Object over = TimeField.groupValue(overField, entry.getKey());
            return pivot.row(overField, over, entry.getValue(), columns, Double.NaN);
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
      SeriesFilter filter = command.layout().where().orElse(null);
      if (filter == null) {
        if (command.limit() == Long.MAX_VALUE) {
          return null;
        }
        filter = SeriesFilter.top(command.limit());
      }
      return SeriesSelection.kept(
          this::groupRows,
          SERIES,
          command.aggregations().get(0).outputName(),
          filter,
          command.position());
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
  private final class TimeRows implements Iterator<Row> {
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
    public Row next() {
      long next = span.next(start, zone);
      double seconds = (next - start) / 1_000_000d;
      Map<String, Object> values = rows.get(start);
      Row row = pivot.row(TIME, start, values == null ? Map.of() : values, columns, seconds);
      start = next;
      skipEmpty();
      return row;
    }
  }
}
