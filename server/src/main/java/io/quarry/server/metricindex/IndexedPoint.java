package io.quarry.server.metricindex;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.metricstore.MetricPoint;

/** A data point with the metric index it goes to. */
public record IndexedPoint(String index, MetricPoint point) {
  public IndexedPoint {
    requireNonNull(index, "index is null");
    requireNonNull(point, "point is null");
  }
}
