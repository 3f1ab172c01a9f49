package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.ChartCommand;
import io.quarry.ql.ast.Span;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.ast.TimechartCommand;
import io.quarry.ql.engine.aggregation.HashAggregationOperator;
import io.quarry.ql.engine.aggregation.PageAggregator;
import java.time.ZoneId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
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
 * bucket (or over-value) with a column per series, empty buckets filled ({@code cont}) — {@link
 * ChartEnd}. The wide rows leave as pages of at most {@code pageSize}, made as they are asked for.
 */
public final class ChartAggregation implements PageAggregator {
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
  private final ChartEnd end;
  private final HashAggregationOperator buckets;
  private final Deque<Page> output = new ArrayDeque<>();
  private Iterator<Map<String, Object>> wideRows; // after finish: the answer, made as asked for
  private boolean finishing;

  /** {@code timechart}. */
  public ChartAggregation(
      TimechartCommand command, ZoneId zone, MemoryTracker memory, int pageSize) {
    this(command, null, null, zone, memory, pageSize);
  }

  /** {@code chart … over X [by Y]}: one row per value of X, in value order. */
  public static ChartAggregation chart(
      ChartCommand chart, ZoneId zone, MemoryTracker memory, int pageSize) {
    return new ChartAggregation(chart.asTimechart(), chart, chart.over(), zone, memory, pageSize);
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
    this.baseSpan = baseSpan(command);
    this.end = new ChartEnd(command, chart, overField, zone, baseSpan);
    this.buckets = new HashAggregationOperator(inner(command), memory, pageSize);
  }

  /**
   * The span {@code command}'s events are first bucketed by (coarsened at the end when none is
   * given): its own, else a minute.
   */
  public static Span baseSpan(TimechartCommand command) {
    return command.span().orElse(Span.ofSeconds(60));
  }

  /**
   * Adds counts a source made in place of rows ({@link
   * io.quarry.ql.engine.aggregation.CountPages#timed}, {@code timechart count by f}): the bucket
   * start in {@code _time} is the bucket, the split field's value the series, and the inner {@code
   * stats} adds each position's count to their group.
   */
  @Override
  public void addIntermediateInput(Page counts) {
    if (finishing) {
      throw new IllegalStateException("input after finish");
    }
    if (overField != null || command.by().isEmpty()) {
      throw new IllegalStateException("only timechart by a field takes counts");
    }
    if (!(counts.block(TIME) instanceof LongBlock starts)) {
      throw new IllegalArgumentException("timed counts need their buckets: " + counts.schema());
    }
    int positions = counts.positionCount();
    LongBlock.Builder bucket = LongBlock.builder(DataType.LONG, positions);
    for (int p = 0; p < positions; p++) {
      bucket.append(starts.getLongValue(starts.getFirstValueIndex(p)));
    }
    buckets.addIntermediateInput(
        counts
            .withColumn(BUCKET, bucket.build())
            .withColumn(SERIES, counts.block(command.by().get())));
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
    return supports(command.asTimechart());
  }

  /** The fields a timechart reads: {@code _time}, the split field, the aggregations' fields. */
  public static List<String> inputFields(TimechartCommand command) {
    return inputFields(command, TIME);
  }

  /** The fields a chart reads: its over-field, the split field, the aggregations' fields. */
  public static List<String> inputFields(ChartCommand chart) {
    return inputFields(chart.asTimechart(), chart.over());
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
        : texts(over, over.positionCount(), false, v -> Bins.bin(span, overField, v, zone));
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
      return texts(series, count, command.useNull(), v -> Bins.bin(span, field, v, zone));
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
   * mapped by {@code map} to its key; a position without values is {@code NULL} when {@code
   * nullSeries}, else null.
   */
  private static Block texts(
      Block values, int count, boolean nullSeries, UnaryOperator<Object> map) {
    BytesBlock.Builder builder = BytesBlock.builder(count);
    for (int p = 0; p < count; p++) {
      List<Object> each = values == null ? List.of() : Values.valuesOf(values, p);
      if (each.isEmpty()) {
        if (nullSeries) {
          builder.append(NULL);
        } else {
          builder.appendNull();
        }
      } else {
        List<String> mapped = new ArrayList<>(each.size());
        for (Object value : each) {
          Object binned = map.apply(value);
          if (binned != null) { // null: an infinity, which no bin holds
            mapped.add(Values.toText(binned));
          }
        }
        if (mapped.isEmpty()) {
          builder.appendNull();
        } else if (mapped.size() == 1) {
          builder.append(mapped.get(0));
        } else {
          builder.beginPositionEntry();
          mapped.forEach(builder::append);
          builder.endPositionEntry();
        }
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
      wideRows = end.rows(buckets, memory);
    }
  }

  /** The chart of the input so far, from a copy of the groups (the search goes on). */
  @Override
  public List<Page> snapshot() {
    MemoryTracker untracked = MemoryTracker.unbounded("chart preview");
    Iterator<Map<String, Object>> rows =
        end.rows(buckets.regrouped(key -> key, untracked), untracked);
    List<Page> pages = new ArrayList<>();
    for (Page page = next(rows); page != null; page = next(rows)) {
      pages.add(page);
    }
    return pages;
  }

  /** The next page of at most {@code pageSize} wide rows, or null after the last. */
  private Page next(Iterator<Map<String, Object>> rows) {
    List<Map<String, Object>> taken = new ArrayList<>();
    while (taken.size() < pageSize && rows.hasNext()) {
      taken.add(rows.next());
    }
    return taken.isEmpty() ? null : ChartPivot.page(taken);
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
}
