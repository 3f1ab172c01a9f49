package io.quarry.codecs.metricstore;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.metric.MetricChunkFormat;
import java.time.Duration;
import java.util.Optional;

/**
 * The settings of one metric index.
 *
 * @param maxBucketPoints the hot bucket rolls to warm once it holds this many points
 * @param maxHotAge ... or once it is this old
 * @param chunkPoints points per chunk (the chunk codec's writer limit)
 * @param maxAge warm buckets whose newest point is older than this are deleted
 * @param mergeFactor how many warm buckets adjacent in time are merged into one ({@link
 *     MergePolicy}); below 2, never
 * @param maxMergedPoints a merge's result holds at most this many points (a merge builds its result
 *     in the heap before writing it, so this bounds a merge's memory too)
 */
public record MetricIndexOptions(
    long maxBucketPoints,
    Duration maxHotAge,
    int chunkPoints,
    Optional<Duration> maxAge,
    int mergeFactor,
    long maxMergedPoints) {
  public static final int DEFAULT_MERGE_FACTOR = 10;
  public static final long DEFAULT_MAX_MERGED_POINTS = 20_000_000;

  public static final MetricIndexOptions DEFAULTS =
      new MetricIndexOptions(10_000_000, Duration.ofHours(1), 1024, Optional.empty());

  public MetricIndexOptions {
    if (maxBucketPoints < 1) {
      throw new IllegalArgumentException("maxBucketPoints must be at least 1");
    }
    requireNonNull(maxHotAge, "maxHotAge is null");
    if (chunkPoints < 1 || chunkPoints > MetricChunkFormat.MAX_POINTS) {
      throw new IllegalArgumentException(
          "chunkPoints must be 1 to " + MetricChunkFormat.MAX_POINTS);
    }
    requireNonNull(maxAge, "maxAge is null");
    if (maxMergedPoints < 1) {
      throw new IllegalArgumentException("maxMergedPoints must be at least 1");
    }
  }

  /** The default merge policy. */
  public MetricIndexOptions(
      long maxBucketPoints, Duration maxHotAge, int chunkPoints, Optional<Duration> maxAge) {
    this(
        maxBucketPoints,
        maxHotAge,
        chunkPoints,
        maxAge,
        DEFAULT_MERGE_FACTOR,
        DEFAULT_MAX_MERGED_POINTS);
  }

  public MetricIndexOptions withMaxBucketPoints(long points) {
    return new MetricIndexOptions(
        points, maxHotAge, chunkPoints, maxAge, mergeFactor, maxMergedPoints);
  }

  public MetricIndexOptions withMaxAge(Optional<Duration> age) {
    return new MetricIndexOptions(
        maxBucketPoints, maxHotAge, chunkPoints, age, mergeFactor, maxMergedPoints);
  }

  /** A merge policy: {@code factor} buckets at a time, at most {@code maxPoints} in the result. */
  public MetricIndexOptions withMerges(int factor, long maxPoints) {
    return new MetricIndexOptions(
        maxBucketPoints, maxHotAge, chunkPoints, maxAge, factor, maxPoints);
  }
}
