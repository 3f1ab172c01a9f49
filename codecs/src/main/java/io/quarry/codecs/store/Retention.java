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
 * directory; the hot bucket counts its last commit only ({@link BucketBytes#committed}): an idle
 * compaction's compact segments, and the fast ones a finished compaction replaced, are both on disk
 * until the next commit, and counting them had deleted a warm bucket for good for bytes gone a
 * moment later. A full bucket waiting for its roll counts only the compact segments of its last
 * commit ({@link BucketBytes#committedCompact}): its fast ones turn into fewer compact bytes when
 * it rolls, and until then its directory holds both. That is a lower bound of what it will hold, so
 * retention never deletes for its transient bytes, and it is never deferred: a bucket may wait for
 * its roll for long (its compaction waiting for a node permit or backing off after a failure, its
 * roll failing and retried, as on a full disk, where the size deletes are what frees the disk;
 * review c36: size retention was off for as long as any full bucket waited).
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
    if (warm.isEmpty()) {
      // nothing it may delete: the bytes would be read for nothing (each commit interval, every
      // index, idle or not — the directory listed and the last commit read, until session 46)
      return 0;
    }
    warm.sort(java.util.Comparator.comparingLong(Bucket::maxTime));
    // the bytes read only for maxTotalBytes: maxAge alone walks no directory, not even the
    // deleted buckets' (until session 47 each deleted bucket's was listed for a total unused)
    boolean sized = options.maxTotalBytes().isPresent();
    long total = sized ? bytes(buckets) : 0;
    for (Bucket bucket : warm) {
      boolean tooOld =
          options.maxAge().isPresent()
              && bucket.maxTime() < nowMicros - options.maxAge().get().toNanos() / 1000;
      boolean tooBig = sized && total > options.maxTotalBytes().get();
      if (!tooOld && !tooBig) {
        continue;
      }
      long size = sized ? BucketBytes.onDisk(bucket) : 0;
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

  /** The index's bytes: each warm bucket's on disk, the hot ones' as committed. */
  private static long bytes(List<Bucket> buckets) throws IOException {
    long total = 0;
    for (Bucket bucket : buckets) {
      if (bucket.isWarm()) {
        total += BucketBytes.onDisk(bucket);
      } else {
        total +=
            bucket.hotCompaction().waitsForRoll()
                ? BucketBytes.committedCompact(bucket)
                : BucketBytes.committed(bucket);
      }
    }
    return total;
  }
}
