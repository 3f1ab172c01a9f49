package io.quarry.server.metricindex;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.metricstore.MetricPoint;
import io.quarry.codecs.metricstore.MetricStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** Writes data points to their metric indexes durably. */
public final class MetricIngest {
  private final MetricStore store;
  private final AtomicLong points = new AtomicLong();

  public MetricIngest(MetricStore store) {
    this.store = requireNonNull(store, "store is null");
  }

  public boolean hasIndex(String index) {
    return store.hasIndex(index);
  }

  public MetricStore store() {
    return store;
  }

  /** Points stored since the server started. */
  public long pointsIngested() {
    return points.get();
  }

  /** Stores batches by index; returns when every point is durable and searchable. */
  public void write(Map<String, io.quarry.codecs.metricstore.MetricBatch> batches)
      throws IOException {
    for (Map.Entry<String, io.quarry.codecs.metricstore.MetricBatch> entry : batches.entrySet()) {
      if (!entry.getValue().isEmpty()) {
        store.index(entry.getKey()).add(entry.getValue());
        points.addAndGet(entry.getValue().size());
      }
    }
  }

  /**
   * Points that came one by one (Prometheus text), grouped by index into batches: returns when
   * every point is durable and searchable.
   */
  public void write(List<IndexedPoint> indexed) throws IOException {
    Map<String, List<MetricPoint>> byIndex = new LinkedHashMap<>();
    for (IndexedPoint point : indexed) {
      byIndex.computeIfAbsent(point.index(), i -> new ArrayList<>()).add(point.point());
    }
    Map<String, io.quarry.codecs.metricstore.MetricBatch> batches = new LinkedHashMap<>();
    byIndex.forEach(
        (index, points) -> batches.put(index, io.quarry.codecs.metricstore.MetricBatch.of(points)));
    write(batches);
  }
}
