package io.quarry.codecs.metricstore;

import java.util.List;
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

  /**
   * The summary of warm {@code buckets} and the points in memory ({@code hotPoints} between {@code
   * hotMin} and {@code hotMax}; the bounds {@link Long#MAX_VALUE} and {@link Long#MIN_VALUE} when
   * there are none).
   */
  static MetricIndexInfo of(
      String name,
      List<WarmBucket> buckets,
      long hotPoints,
      long hotMin,
      long hotMax,
      Map<String, Long> bytesByKind) {
    long points = 0;
    long series = 0;
    long chunks = 0;
    long bytes = 0;
    long min = hotMin;
    long max = hotMax;
    for (WarmBucket bucket : buckets) {
      points += bucket.points;
      series += bucket.seriesCount();
      chunks += bucket.chunkCount();
      bytes += bucket.bytesOnDisk();
      min = Math.min(min, bucket.minTime);
      max = Math.max(max, bucket.maxTime);
    }
    return new MetricIndexInfo(
        name,
        buckets.size(),
        points + hotPoints,
        hotPoints,
        series,
        chunks,
        bytes,
        min,
        max,
        bytesByKind);
  }
}
