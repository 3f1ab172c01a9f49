package io.quarry.client;

/**
 * A metric index as {@code GET /api/v1/indexes} lists it (under {@code metricIndexes}).
 *
 * @param points every point, the hot bucket's included
 * @param hotPoints points not yet in a warm bucket (in memory and in the log)
 * @param series summed over warm buckets (a series in two buckets counts twice)
 * @param chunks summed over warm buckets
 * @param bytesOnDisk the warm buckets' files
 * @param bytesPerPoint the warm buckets' bytes per warm point; null without warm points
 * @param bytesByKind the index's files by kind (series files, chunk files, log)
 * @param quarantinedBuckets buckets found damaged and moved aside
 */
public record MetricIndexSummary(
    String name,
    long points,
    long hotPoints,
    Long earliestMicros,
    Long latestMicros,
    int warmBuckets,
    long series,
    long chunks,
    long bytesOnDisk,
    Double bytesPerPoint,
    java.util.Map<String, Long> bytesByKind,
    int quarantinedBuckets) {
  public MetricIndexSummary {
    bytesByKind = java.util.Map.copyOf(bytesByKind);
  }
}
