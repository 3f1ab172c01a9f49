package io.quarry.codecs.store;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The deferred compaction of one index ({@link CompactionSettings}): starts its hot bucket's when
 * due, counts the compaction merges its buckets finished ({@link CompactionCounter}), backs off
 * after a failed one, and says where it stands ({@link CompactionStatus}). {@link IndexStore} runs
 * {@link #startIfDue} every {@link IndexStore#REFRESH_INTERVAL_MILLIS}.
 */
final class IndexCompaction {
  private static final Logger LOG = Logger.getLogger(IndexCompaction.class.getName());

  static final long FIRST_BACKOFF_NANOS = TimeUnit.MINUTES.toNanos(1);
  static final long MAX_BACKOFF_NANOS = TimeUnit.HOURS.toNanos(1);

  private final String index;
  private final CompactionSettings settings;
  private final CompactionPermits node; // the node's permits, shared by its indexes

  /** The compaction merges this index finished since it opened (the server started). */
  private final CompactionCounter done = new CompactionCounter();

  // the delay before the next compaction after failed ones in a row (0: none failed), and when
  private volatile long backoffNanos;
  private volatile long notBefore = System.nanoTime();
  private volatile long compactionsAtBackoff; // done's count at the last failure

  IndexCompaction(String index, CompactionSettings settings, CompactionPermits node) {
    this.index = index;
    this.settings = settings;
    this.node = node;
  }

  /** The node's compaction permits. */
  CompactionPermits node() {
    return node;
  }

  /** Counts {@code bucket}'s compaction merges as this index's, before it takes part in it. */
  void join(Bucket bucket) {
    bucket.hotCompaction().countCompactionsIn(done);
  }

  /**
   * Whether a compaction failed and the back-off after it ({@link #writerFailed}) still holds the
   * next: neither an idle one nor one ahead of a roll starts meanwhile.
   */
  boolean backingOff() {
    if (done.compactions() > compactionsAtBackoff) {
      backoffNanos = 0; // a compaction succeeded since the last failed
      return false;
    }
    return System.nanoTime() - notBefore < 0;
  }

  /**
   * Starts the hot bucket's deferred compaction when it is due ({@link
   * HotBucketCompaction#compactIfDue}), no back-off holds it and the node has a permit for it. The
   * merges run on Lucene's merge threads.
   */
  void startIfDue(Bucket hot) {
    if (backingOff()) {
      return;
    }
    try {
      if (hot.hotCompaction().compactIfDue(settings, node)) {
        LOG.fine("index " + index + ": compaction started");
      }
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.FINE, "index " + index + ": compaction not started", e);
    }
  }

  /**
   * Told of a bucket whose writer failed, before it is reopened: after a compaction whose merge
   * failed, the next is not started before a delay that doubles with each failure in a row, from
   * {@link #FIRST_BACKOFF_NANOS} up to {@link #MAX_BACKOFF_NANOS}: a disk that fails every merge
   * does not make the idle bucket fail, recover and fail again every second.
   */
  void writerFailed(Bucket failed) {
    if (!failed.hotCompaction().compactionFailed()) {
      return;
    }
    long backoff = backoffNanos;
    backoff = backoff == 0 ? FIRST_BACKOFF_NANOS : Math.min(2 * backoff, MAX_BACKOFF_NANOS);
    backoffNanos = backoff;
    compactionsAtBackoff = done.compactions();
    notBefore = System.nanoTime() + backoff;
    LOG.warning(
        "index "
            + index
            + ": a compaction failed; the next starts in "
            + TimeUnit.NANOSECONDS.toSeconds(backoff)
            + " s at the earliest");
  }

  /** Where the deferred compaction of {@code buckets} (the index's) stands. */
  CompactionStatus status(List<Bucket> buckets) {
    long pending = 0;
    boolean running = false;
    boolean due = false;
    int waiting = 0;
    for (Bucket bucket : buckets) {
      waiting += bucket.hotCompaction().waitingSegments();
      pending += bucket.hotCompaction().compactionPendingBytes();
      // a compaction the hot bucket's last commit does not hold yet still runs: until that commit
      // (IndexCommits#commitCompacted) the fast segments it replaced stay on disk
      running |=
          bucket.hotCompaction().compacting() || bucket.hotCompaction().compactionUncommitted();
      due |= bucket.hotCompaction().compactionDue(settings);
    }
    return new CompactionStatus(
        pending, running, due, done.compactions(), done.compactedBytes(), waiting);
  }
}
