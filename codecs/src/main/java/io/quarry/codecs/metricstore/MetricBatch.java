package io.quarry.codecs.metricstore;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Points to store together, columnar: the batch's series once each ({@link #addSeries}, an ordinal
 * per series) and per point its series' ordinal, time and value in primitive arrays — no object per
 * point. The log writes each series once per record and the hot bucket finds each series once per
 * batch, so a writer that knows its series (HEC interns them per request) costs no hashing per
 * point. Not thread-safe; not to be changed once given to {@link MetricIndexStore#add}.
 */
public final class MetricBatch {
  private SeriesKey[] series;
  private int seriesCount;
  private int[] ordinals;
  private long[] times;
  private double[] values;
  private int size;

  /** An empty batch sized for about {@code expectedPoints} points. */
  public MetricBatch(int expectedPoints) {
    int capacity = Math.max(16, expectedPoints);
    this.series = new SeriesKey[16];
    this.ordinals = new int[capacity];
    this.times = new long[capacity];
    this.values = new double[capacity];
  }

  /** The points of a list, their series found by equality (the slower way in). */
  public static MetricBatch of(List<MetricPoint> points) {
    MetricBatch batch = new MetricBatch(points.size());
    Map<SeriesKey, Integer> ordinals = new HashMap<>();
    for (MetricPoint point : points) {
      Integer ordinal = ordinals.get(point.series());
      if (ordinal == null) {
        ordinal = batch.addSeries(point.series());
        ordinals.put(point.series(), ordinal);
      }
      batch.add(ordinal, point.timeMicros(), point.value());
    }
    return batch;
  }

  /**
   * Adds a series, returning its ordinal for {@link #add}. The caller adds a series once (an equal
   * series added twice is still correct, only written twice to the log).
   */
  public int addSeries(SeriesKey key) {
    requireNonNull(key, "key is null");
    if (seriesCount == series.length) {
      series = Arrays.copyOf(series, seriesCount * 2);
    }
    series[seriesCount] = key;
    return seriesCount++;
  }

  /** Adds a point of the series {@code ordinal} (from {@link #addSeries}). */
  public void add(int ordinal, long timeMicros, double value) {
    if (ordinal < 0 || ordinal >= seriesCount) {
      throw new IllegalArgumentException("no series " + ordinal + " in a batch of " + seriesCount);
    }
    if (size == ordinals.length) {
      int capacity = size * 2;
      ordinals = Arrays.copyOf(ordinals, capacity);
      times = Arrays.copyOf(times, capacity);
      values = Arrays.copyOf(values, capacity);
    }
    ordinals[size] = ordinal;
    times[size] = timeMicros;
    values[size] = value;
    size++;
  }

  /** Number of points. */
  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** Number of series added. */
  public int seriesCount() {
    return seriesCount;
  }

  public SeriesKey series(int ordinal) {
    return series[ordinal];
  }

  /** The series ordinal of point {@code i}. */
  public int ordinal(int i) {
    return ordinals[i];
  }

  public long time(int i) {
    return times[i];
  }

  public double value(int i) {
    return values[i];
  }

  /** Point {@code i} as an object (for tests and the slow paths). */
  public MetricPoint point(int i) {
    return new MetricPoint(series[ordinals[i]], times[i], values[i]);
  }
}
