package io.quarry.codecs.metricstore;

import static java.util.Objects.requireNonNull;

/**
 * One measurement: a series, a time (epoch microseconds) and a value (any double, stored bit for
 * bit).
 */
public record MetricPoint(SeriesKey series, long timeMicros, double value) {
  public MetricPoint {
    requireNonNull(series, "series is null");
  }
}
