package io.quarry.server.search.metric;

import io.quarry.codecs.metricstore.MetricScanVisitor;
import io.quarry.codecs.metricstore.Postings;
import io.quarry.codecs.metricstore.SeriesKey;
import io.quarry.ql.ast.MstatsCommand;
import io.quarry.ql.ast.Span;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * One {@code mstats}: a scan visitor that sends each selected series' points to the states of its
 * group (the series' values of the by-fields) and time bucket, one state per output column, and
 * then the rows: {@code _time} (with a span), the by-fields, the columns — ordered by time, then
 * by-field values.
 *
 * <p>Columns: an aggregation of a named metric is one column; of a pattern ({@code cpu.*}), one per
 * metric name that matches, ordered by name; of {@code _value}, one over every selected series. A
 * series that lacks a by-field is left out, as {@code stats} leaves out rows without one ({@link
 * MstatsColumns}, {@link MstatsGroups}).
 *
 * <p>It forks: a parallel scan gives each slice of a bucket's series a fork (the same columns, its
 * own states) and joins the forks back in series order ({@link MetricState#merge}).
 */
final class MstatsRun implements MetricScanVisitor {
  private final MstatsCommand command;
  private final Span span;
  private final ZoneId zone;
  // a span of fixed width in a fixed-offset zone: bucket = floorDiv(time + shift, size); 0: no
  private final long fixedSize;
  private final long fixedShift;
  private final BooleanSupplier stopped;
  private final MstatsColumns columns;
  private final MstatsGroups groups;
  private final Map<TrackerKey, MetricState.RateTracker> trackers = new HashMap<>();
  private String index = "";

  private record TrackerKey(String index, SeriesKey series, long bucket, int column) {}

  /** Bytes counted per group and time bucket, and per output column of one. */
  static final long GROUP_BYTES = MstatsGroups.GROUP_BYTES;

  static final long COLUMN_BYTES = MstatsGroups.COLUMN_BYTES;

  private final io.quarry.plugin.api.data.MemoryAccount memory;

  MstatsRun(MstatsCommand command, ZoneId zone, BooleanSupplier stopped) {
    this(command, zone, stopped, io.quarry.plugin.api.data.MemoryAccount.unbounded("mstats"));
  }

  /**
   * As above, counting the states against {@code memory} (the search's account): a group and time
   * bucket {@link #GROUP_BYTES}, each of its states {@link #COLUMN_BYTES}, a percentile's values 8
   * bytes each, a rate tracker a group's worth.
   */
  MstatsRun(
      MstatsCommand command,
      ZoneId zone,
      BooleanSupplier stopped,
      io.quarry.plugin.api.data.MemoryAccount memory) {
    this(command, zone, stopped, memory, new MstatsColumns(command));
  }

  private MstatsRun(
      MstatsCommand command,
      ZoneId zone,
      BooleanSupplier stopped,
      io.quarry.plugin.api.data.MemoryAccount memory,
      MstatsColumns columns) {
    this.memory = memory;
    this.command = command;
    this.span = command.span().orElse(null);
    this.zone = zone;
    if (span != null
        && span.unit() != java.time.temporal.ChronoUnit.MONTHS
        && zone instanceof java.time.ZoneOffset) {
      long origin = span.floor(0, zone);
      fixedSize = span.next(origin, zone) - origin;
      fixedShift = -origin; // floor(t) = floorDiv(t - origin, size) * size + origin
    } else {
      fixedSize = 0;
      fixedShift = 0;
    }
    this.stopped = stopped;
    this.columns = columns;
    this.groups = new MstatsGroups(command, columns, zone, memory);
  }

  /** The index the next scanned series belong to (for {@code by index}). */
  void index(String name) {
    this.index = name;
  }

  /** Whether a series of metric {@code name} can matter: the store skips the others' chunks. */
  boolean wants(String name) {
    return columns.wants(name);
  }

  @Override
  public boolean stopped() {
    return stopped.getAsBoolean();
  }

  /** A run for a slice of series read on another thread: the same columns, its own states. */
  @Override
  public MetricScanVisitor fork() {
    MstatsRun fork = new MstatsRun(command, zone, stopped, memory, columns);
    fork.index = index;
    return fork;
  }

  @Override
  public void join(MetricScanVisitor fork) {
    MstatsRun later = (MstatsRun) fork;
    groups.merge(later.groups);
    for (Map.Entry<TrackerKey, MetricState.RateTracker> tracker : later.trackers.entrySet()) {
      MetricState.RateTracker own = trackers.putIfAbsent(tracker.getKey(), tracker.getValue());
      if (own != null) {
        own.merge(tracker.getValue());
        memory.release(GROUP_BYTES);
      }
    }
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
    MstatsColumns.Of of = columns.of(key.metricName());
    int[] ids = of.ids();
    if (ids.length == 0) {
      return null;
    }
    MstatsGroups.Group group = groups.group(List.copyOf(values));
    boolean onlyCounts = of.onlyCounts();
    boolean[] perSeries = new boolean[ids.length];
    boolean anyPerSeries = false;
    for (int i = 0; i < ids.length; i++) {
      perSeries[i] = columns.get(ids[i]).function().perSeries();
      anyPerSeries |= perSeries[i];
    }
    boolean trackRates = anyPerSeries;
    return new Points() {
      // the span bucket [rangeStart, bucketEnd) of the last point: points come in time order, so
      // most fall in the bucket before and need no floor
      private long rangeStart = Long.MIN_VALUE;
      private long bucketEnd = Long.MIN_VALUE;
      private MetricState[] states;
      private final MetricState.RateTracker[] rates = new MetricState.RateTracker[ids.length];

      @Override
      public boolean wholeChunk(long minTime, long maxTime, int count) {
        if (!onlyCounts) {
          return false;
        }
        boolean moved = move(minTime);
        if (span != null && maxTime >= bucketEnd) {
          return false; // the chunk spans several buckets: count its points one by one
        }
        if (moved || states == null) {
          states = groups.states(group, span == null ? 0 : rangeStart, ids);
        }
        for (int id : ids) {
          ((MetricState.Count) states[id]).add(count);
        }
        return true;
      }

      /** Moves to the bucket of {@code time}; true when it is another than the last one's. */
      private boolean move(long time) {
        if (time >= rangeStart && time < bucketEnd) {
          return false;
        }
        if (span == null) {
          rangeStart = Long.MIN_VALUE;
          bucketEnd = Long.MAX_VALUE;
        } else if (fixedSize > 0) {
          // what span.floor answers, without working out the zone's offset and width per bucket
          rangeStart = Math.floorDiv(time + fixedShift, fixedSize) * fixedSize - fixedShift;
          bucketEnd = rangeStart + fixedSize;
        } else {
          rangeStart = span.floor(time, zone);
          bucketEnd = span.next(rangeStart, zone);
        }
        return true;
      }

      @Override
      public void point(long time, double value) {
        if (move(time) || states == null) {
          long at = span == null ? 0 : rangeStart;
          states = groups.states(group, at, ids);
          if (trackRates) {
            for (int i = 0; i < ids.length; i++) {
              rates[i] =
                  perSeries[i]
                      ? trackers.computeIfAbsent(
                          new TrackerKey(index, key, at, ids[i]),
                          k -> {
                            memory.reserve(GROUP_BYTES, "mstats");
                            return new MetricState.RateTracker();
                          })
                      : null;
            }
          }
        }
        if (trackRates) {
          for (int i = 0; i < ids.length; i++) {
            if (rates[i] != null) {
              rates[i].add(time, value);
            } else {
              states[ids[i]].add(time, value);
            }
          }
        } else {
          for (int id : ids) {
            states[id].add(time, value);
          }
        }
      }
    };
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

  /** A state's answer; a count column of a row where its metric had no point counts 0. */
  private Object result(MetricState[] states, int column) {
    MetricState state = column < states.length ? states[column] : null;
    if (state != null) {
      return state.result();
    }
    return columns.get(column).function() == io.quarry.ql.ast.MetricFunction.COUNT ? 0L : null;
  }

  /**
   * The answer as typed pages of at most {@code pageSize} rows and {@code maxRows} in all: {@code
   * _time} a timestamp column, by-fields string columns, {@code count} long columns, the others
   * double columns (null where a state has no answer). For a search where nothing follows mstats:
   * no row objects.
   */
  List<io.quarry.plugin.api.data.Page> pages(int pageSize, long maxRows) {
    List<MstatsGroups.Cell> sorted = finishGroups();
    int[] order = columns.order();
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
      boolean count = columns.get(c).function() == io.quarry.ql.ast.MetricFunction.COUNT;
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
          times.append(sorted.get(r).start());
        }
        blocks.add(times.build());
      }
      for (int f = 0; f < command.groupBy().size(); f++) {
        io.quarry.plugin.api.data.BytesBlock.Builder values =
            io.quarry.plugin.api.data.BytesBlock.builder(to - from);
        for (int r = from; r < to; r++) {
          values.append(sorted.get(r).values().get(f));
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
            values.appendNullable((Long) result(sorted.get(r).states(), c));
          }
          blocks.add(values.build());
        } else {
          io.quarry.plugin.api.data.DoubleBlock.Builder values =
              io.quarry.plugin.api.data.DoubleBlock.builder(to - from);
          for (int r = from; r < to; r++) {
            MetricState[] states = sorted.get(r).states();
            if (c < states.length && states[c] instanceof MetricState.Numeric numeric) {
              numeric.appendTo(values); // sum, avg, min, max, range: no Double per cell
            } else {
              values.appendNullable((Double) result(states, c));
            }
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
  private List<MstatsGroups.Cell> finishGroups() {
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
      MetricState[] states =
          groups.states(groups.group(List.copyOf(values)), key.bucket(), new int[] {key.column()});
      ((MetricState.Rates) states[key.column()]).addRate(rate);
    }
    trackers.clear();
    return groups.cells();
  }
}
