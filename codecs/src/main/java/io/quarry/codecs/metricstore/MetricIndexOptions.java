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
 */
public record MetricIndexOptions(
    long maxBucketPoints, Duration maxHotAge, int chunkPoints, Optional<Duration> maxAge) {
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
  }

  public MetricIndexOptions withMaxBucketPoints(long points) {
    return new MetricIndexOptions(points, maxHotAge, chunkPoints, maxAge);
  }

  public MetricIndexOptions withMaxAge(Optional<Duration> age) {
    return new MetricIndexOptions(maxBucketPoints, maxHotAge, chunkPoints, age);
  }
}
