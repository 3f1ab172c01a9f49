package io.quarry.codecs.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * An index's retention ({@code maxAge}, {@code maxTotalBytes}): which warm buckets go, oldest
 * first. Only warm buckets are deleted: never the hot bucket, nor a full one waiting for its roll.
 *
 * <p>{@code maxTotalBytes} never deletes for bytes a compaction will free. A warm bucket counts its
 * directory; a bucket taking writes or waiting for its roll counts its last commit only ({@link
 * BucketBytes#committed}): a running compaction's compact segments, and the fast ones a finished
 * compaction replaced, are both on disk until the next commit, and counting them had deleted a warm
 * bucket for good for bytes gone a moment later (a hot bucket's idle compaction, and a full
 * bucket's, which held both until its roll). While a full bucket waits for its roll (compacting
 * ahead of it, or waiting for the node's permit to, {@link CompactionPermits}), no bucket is
 * deleted by size at all: its last commit holds its fast segments, larger than the compact ones it
 * will hold once rolled. The wait is a compaction away, or longer while the bucket waits for a
 * permit other indexes hold ({@code maxAge} still applies meanwhile).
 */
final class Retention {
  private static final Logger LOG = Logger.getLogger(IndexStore.class.getName());

  private Retention() {}

  /**
   * Deletes from {@code buckets} (and closes and removes from disk) the warm buckets of index
   * {@code name} past its retention at {@code nowMicros}, oldest first.
   *
   * @return the number of buckets deleted
   */
  static int apply(String name, IndexOptions options, long nowMicros, List<Bucket> buckets)
      throws IOException {
    int deleted = 0;
    List<Bucket> warm = new ArrayList<>(buckets.stream().filter(Bucket::isWarm).toList());
    warm.sort(java.util.Comparator.comparingLong(Bucket::maxTime));
    long total = 0;
    boolean waitingForRoll = false;
    for (Bucket bucket : buckets) {
      total += bucket.isWarm() ? BucketBytes.onDisk(bucket) : BucketBytes.committed(bucket);
      waitingForRoll |= bucket.waitsForRoll();
    }
    for (Bucket bucket : warm) {
      boolean tooOld =
          options.maxAge().isPresent()
              && bucket.maxTime() < nowMicros - options.maxAge().get().toNanos() / 1000;
      boolean tooBig =
          options.maxTotalBytes().isPresent()
              && !waitingForRoll
              && total > options.maxTotalBytes().get();
      if (!tooOld && !tooBig) {
        continue;
      }
      long size = BucketBytes.onDisk(bucket);
      buckets.remove(bucket);
      bucket.close();
      org.apache.lucene.util.IOUtils.rm(bucket.path());
      total -= size;
      deleted++;
      LOG.info(
          "index "
              + name
              + ": retention deleted bucket "
              + bucket.id()
              + " ("
              + (tooOld ? "older than maxAge" : "over maxTotalBytes")
              + ", "
              + bucket.events()
              + " events)");
    }
    return deleted;
  }
}
