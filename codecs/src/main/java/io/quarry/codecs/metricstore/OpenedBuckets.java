package io.quarry.codecs.metricstore;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The warm buckets a metric index opens with: every bucket directory that opens, less the sources a
 * finished merge left behind ({@link BucketMerger#withoutLeftSources}); a bucket that does not open
 * is moved to quarantine.
 *
 * @param live the buckets the index reads
 * @param coveredGeneration the newest log generation a live bucket holds (the log replays those
 *     after it)
 * @param nextId the id the next bucket written takes: past every directory's and every roll's
 */
record OpenedBuckets(List<WarmBucket> live, long coveredGeneration, long nextId) {
  static OpenedBuckets open(String index, Path bucketsDirectory, BucketQuarantine quarantine)
      throws IOException {
    long covered = 0;
    long maxId = 0;
    List<WarmBucket> opened = new ArrayList<>();
    for (Path dir : MetricBucketFormat.list(bucketsDirectory)) {
      maxId = Math.max(maxId, Long.parseLong(dir.getFileName().toString()));
      try {
        opened.add(WarmBucket.open(dir));
      } catch (IOException | RuntimeException e) {
        quarantine.move(dir, e);
      }
    }
    List<WarmBucket> live = BucketMerger.withoutLeftSources(index, opened);
    for (WarmBucket bucket : live) {
      covered = Math.max(covered, bucket.walGeneration);
    }
    for (WarmBucket bucket : opened) {
      maxId = Math.max(maxId, bucket.lastRoll);
    }
    return new OpenedBuckets(live, covered, maxId + 1);
  }
}
