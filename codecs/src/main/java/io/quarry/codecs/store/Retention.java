package io.quarry.codecs.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * An index's retention ({@code maxAge}, {@code maxTotalBytes}): which warm buckets go, oldest
 * first. The hot bucket is never deleted.
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
    for (Bucket bucket : buckets) {
      total += BucketBytes.onDisk(bucket);
    }
    for (Bucket bucket : warm) {
      boolean tooOld =
          options.maxAge().isPresent()
              && bucket.maxTime() < nowMicros - options.maxAge().get().toNanos() / 1000;
      boolean tooBig = options.maxTotalBytes().isPresent() && total > options.maxTotalBytes().get();
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
