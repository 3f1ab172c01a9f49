package io.quarry.codecs.metricstore;

import java.util.Map;

/**
 * What a metric index holds ({@link MetricIndexStore#info}).
 *
 * @param warmBuckets buckets on disk
 * @param points every point, hot ones included
 * @param hotPoints points in memory (in the log on disk), not yet in a warm bucket
 * @param series summed over warm buckets (a series in two buckets counts twice)
 * @param chunks summed over warm buckets
 * @param bytesOnDisk the warm buckets' files
 * @param minTime the earliest point (epoch µs; meaningless when there is none)
 * @param maxTime the latest point
 * @param bytesByKind the index's files on disk by kind: series files, chunk files, log
 */
public record MetricIndexInfo(
    String name,
    int warmBuckets,
    long points,
    long hotPoints,
    long series,
    long chunks,
    long bytesOnDisk,
    long minTime,
    long maxTime,
    Map<String, Long> bytesByKind) {
  public MetricIndexInfo {
    bytesByKind = Map.copyOf(bytesByKind);
  }
}
