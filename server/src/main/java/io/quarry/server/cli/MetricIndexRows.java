package io.quarry.server.cli;

import io.quarry.client.MetricIndexSummary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The metric indexes' rows of {@code quarry indexes}: a summary each, and bytes by kind. */
final class MetricIndexRows {
  static final List<String> FIELDS =
      List.of(
          "metric index",
          "buckets",
          "points",
          "hot points",
          "series",
          "chunks",
          "earliest",
          "latest",
          "on disk",
          "bytes/point",
          "quarantined");

  private MetricIndexRows() {}

  static List<Map<String, String>> summary(List<MetricIndexSummary> indexes) {
    List<Map<String, String>> rows = new ArrayList<>();
    for (MetricIndexSummary index : indexes) {
      Map<String, String> row = new LinkedHashMap<>();
      row.put("metric index", index.name());
      row.put("buckets", Integer.toString(index.warmBuckets()));
      row.put("points", Long.toString(index.points()));
      row.put("hot points", Long.toString(index.hotPoints()));
      row.put("series", Long.toString(index.series()));
      row.put("chunks", Long.toString(index.chunks()));
      row.put("earliest", time(index.earliestMicros()));
      row.put("latest", time(index.latestMicros()));
      row.put(
          "on disk",
          ByteBreakdownRows.megabytes(
              index.bytesByKind().values().stream().mapToLong(b -> b).sum()));
      row.put(
          "bytes/point",
          index.bytesPerPoint() == null
              ? "-" // nothing rolled to disk yet
              : String.format(Locale.ROOT, "%.3f", index.bytesPerPoint()));
      row.put("quarantined", Integer.toString(index.quarantinedBuckets()));
      rows.add(row);
    }
    return rows;
  }

  /** One row per index and kind of file, largest first; per point over every point. */
  static List<Map<String, String>> kinds(List<MetricIndexSummary> indexes) {
    List<Map<String, String>> rows = new ArrayList<>();
    for (MetricIndexSummary index : indexes) {
      ByteBreakdownRows.add(rows, index.name(), index.bytesByKind(), "per point", index.points());
    }
    return rows;
  }

  private static String time(Long micros) {
    return micros == null ? "" : Instant.ofEpochSecond(0, micros * 1000).toString();
  }
}
