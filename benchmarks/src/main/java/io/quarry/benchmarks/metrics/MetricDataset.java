package io.quarry.benchmarks.metrics;

import io.quarry.codecs.metricstore.MetricPoint;
import io.quarry.codecs.metricstore.SeriesKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A generated metric dataset: {@code hosts} hosts ({@code h1} …) × {@code metrics} metrics × {@code
 * points} points at a 10 s interval ending now. A quarter of the metrics each: {@code cpu.<i>}
 * whole-number gauges with noise (a random walk in 0–100), {@code net.<i>} counters (random
 * increments, an occasional reset), {@code mem.<i>} constants, {@code disk.<i>} gauges in half
 * units. Deterministic: a point's value depends only on its series and index.
 */
final class MetricDataset {
  static final long INTERVAL_SECONDS = 10;

  final int hosts;
  final int metrics;
  final int points;
  final long startSeconds;
  private final double[][] state; // per series: the last value
  private final SplittableRandom[] random;

  MetricDataset(int hosts, int metrics, int points, long endSeconds) {
    this.hosts = hosts;
    this.metrics = metrics;
    this.points = points;
    this.startSeconds = endSeconds - (long) points * INTERVAL_SECONDS;
    this.state = new double[hosts][metrics];
    this.random = new SplittableRandom[hosts * metrics];
    for (int s = 0; s < random.length; s++) {
      random[s] = new SplittableRandom(s * 7919L + 1);
    }
    for (int h = 0; h < hosts; h++) {
      for (int m = 0; m < metrics; m++) {
        state[h][m] = kind(m) == 2 ? 1024 * (m + 1) : 50;
      }
    }
  }

  long pointCount() {
    return (long) hosts * metrics * points;
  }

  static String host(int h) {
    return "h" + (h + 1);
  }

  /** 0 cpu (gauge), 1 net (counter), 2 mem (constant), 3 disk (half units). */
  int kind(int m) {
    return Math.min(3, m * 4 / metrics);
  }

  String metric(int m) {
    return switch (kind(m)) {
      case 0 -> "cpu." + m;
      case 1 -> "net." + m;
      case 2 -> "mem." + m;
      default -> "disk." + m;
    };
  }

  /** The next value of series (h, m): call in time order, once per point. */
  double next(int h, int m) {
    SplittableRandom r = random[h * metrics + m];
    double value = state[h][m];
    switch (kind(m)) {
      case 0 -> value = Math.max(0, Math.min(100, value + r.nextInt(-3, 4)));
      case 1 -> value = r.nextInt(100_000) == 0 ? 0 : value + r.nextInt(0, 5_000);
      case 2 -> {}
      default -> value = Math.max(0, value + r.nextInt(-2, 3) * 0.5);
    }
    state[h][m] = value;
    return value;
  }

  /** Every point of time step {@code i} as store points (dimensions host and region). */
  List<MetricPoint> step(int i, SeriesKey[][] keys) {
    List<MetricPoint> batch = new ArrayList<>(hosts * metrics);
    long micros = (startSeconds + i * INTERVAL_SECONDS) * 1_000_000L;
    for (int h = 0; h < hosts; h++) {
      for (int m = 0; m < metrics; m++) {
        batch.add(new MetricPoint(keys[h][m], micros, next(h, m)));
      }
    }
    return batch;
  }

  /**
   * Every point of time step {@code i} into a batch whose series are {@link #keys} added host by
   * host, metric by metric (series {@code (h, m)} is ordinal {@code h * metrics + m}).
   */
  void step(int i, io.quarry.codecs.metricstore.MetricBatch into) {
    long micros = (startSeconds + i * INTERVAL_SECONDS) * 1_000_000L;
    for (int h = 0; h < hosts; h++) {
      for (int m = 0; m < metrics; m++) {
        into.add(h * metrics + m, micros, next(h, m));
      }
    }
  }

  SeriesKey[][] keys() {
    SeriesKey[][] keys = new SeriesKey[hosts][metrics];
    for (int h = 0; h < hosts; h++) {
      for (int m = 0; m < metrics; m++) {
        keys[h][m] = SeriesKey.of(metric(m), Map.of("host", host(h), "region", region(h)));
      }
    }
    return keys;
  }

  static String region(int h) {
    return h % 2 == 0 ? "us" : "eu";
  }
}
