package io.quarry.codecs.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The node's bound on compactions ({@link CompactionSettings}): at most {@code permits} buckets,
 * across every index of the {@link EventStore}, compact at once — a full bucket ahead of its roll
 * ({@link HotBucketCompaction#compactBeforeRoll}), a hot bucket that is idle or past its bound
 * ({@link HotBucketCompaction#compactIfDue}), or, with compaction inline, a scheduled roll whose
 * forced merge compacts (a permit for the roll's length, {@code FullBucketRolls#rollUnderPermit};
 * without one the full bucket waits for its roll as below). A bucket that finds no permit free does
 * not compact: a hot one tries again at its next scheduled check; a full one waits for its roll
 * without compacting (reported {@code rolling}, its index's compaction {@code due}) until its
 * index's compaction check (every second) or a later commit finds a permit free, while its index's
 * hot bucket goes on taking events past its limit ({@code IndexStore}): no roll compacts under a
 * commit lock. Full buckets waiting for a permit go first: an idle or bounded compaction takes a
 * permit only while more are free than full buckets wait ({@link #startForRoll}), since a full
 * bucket's wait holds back its index's roll and makes its hot bucket grow.
 *
 * <p>A permit is a bucket's from the start of its compaction until the compaction's merges end (an
 * idle or bounded one) or the bucket rolls ({@link HotBucketCompaction#holdsCompactionPermit}): a
 * bucket whose compaction ahead of the roll ended rolls at its index's next commit without asking
 * again, never held back by another bucket that took the permit in between. It is free again once
 * the bucket rolled, failed or closed (its writer closed, its merges aborted); nothing has to hand
 * it back, so no close, failure or retention can leak one. The monitor is held only to count and
 * reserve permits, never while a compaction starts: starting one flushes and registers Lucene
 * merges (and a merge scheduler may stall the caller), which would hold every other index's ask
 * meanwhile.
 */
final class CompactionPermits {
  /** One compaction at a time, two from four cores on. */
  static final int DEFAULT_PERMITS =
      Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors() / 2));

  /** What {@link #start} did. */
  enum Started {
    /** No permit was free: nothing started. */
    NO_PERMIT,
    /** A merge of the compaction runs now: the bucket holds a permit until it ends or rolls. */
    MERGING,
    /** The start found nothing to merge: the bucket holds no permit. */
    NOTHING
  }

  private final int permits;
  private final List<Bucket> holders = new ArrayList<>(); // guarded by this
  private final Set<Bucket> starting =
      new HashSet<>(); // reserved while they start; guarded by this
  // full buckets that asked ahead of their roll and found no permit free, in the order they asked;
  // guarded by this
  private final Set<Bucket> waiting = new java.util.LinkedHashSet<>();
  private int holds; // holds taken by hold() and not closed; guarded by this

  CompactionPermits(int permits) {
    if (permits < 1) {
      throw new IllegalArgumentException("permits must be positive: " + permits);
    }
    this.permits = permits;
  }

  /**
   * Runs {@code start} (which starts {@code bucket}'s compaction and says whether a merge of it now
   * runs) when the bucket holds a permit or one is free, outside this object's monitor.
   */
  Started start(Bucket bucket, IOStart start) throws IOException {
    return start(bucket, false, start);
  }

  /**
   * As {@link #start}, for a full bucket's compaction ahead of its roll: when no permit is free the
   * bucket is noted as waiting for one ({@link #waitsForPermit}), and no idle or bounded compaction
   * takes a permit before it.
   */
  Started startForRoll(Bucket bucket, IOStart start) throws IOException {
    return start(bucket, true, start);
  }

  /**
   * Holds back every compaction not yet started until the hold is closed: while held, no bucket
   * without a permit gets one (a full bucket waits for its roll as when every permit is busy);
   * compactions already running go on. Tests reach an index's refusing state through it on a real
   * server through the codecs test-jar's {@code CompactionHolds}; holds nest.
   */
  java.io.Closeable hold() {
    synchronized (this) {
      holds++;
    }
    java.util.concurrent.atomic.AtomicBoolean closed =
        new java.util.concurrent.atomic.AtomicBoolean();
    return () -> {
      if (closed.compareAndSet(false, true)) {
        synchronized (this) {
          holds--;
        }
      }
    };
  }

  /**
   * Whether {@code bucket}, full, asked for a permit ahead of its roll and found none free: its
   * index's compaction check ({@code FullBucketRolls#startWaiting}) asks again every second.
   */
  synchronized boolean waitsForPermit(Bucket bucket) {
    return waiting.contains(bucket);
  }

  private Started start(Bucket bucket, boolean forRoll, IOStart start) throws IOException {
    boolean held;
    synchronized (this) {
      holders.removeIf(
          holder -> holder != bucket && !holder.hotCompaction().holdsCompactionPermit());
      waiting.removeIf(full -> !full.hotCompaction().waitsForRoll() || full.failed());
      if (starting.contains(bucket)) {
        return Started.NO_PERMIT; // being started by another thread: its permit is reserved
      }
      held = holders.contains(bucket);
      // an idle or bounded compaction leaves a permit to each full bucket waiting for one
      int taken = holders.size() + starting.size() + (forRoll ? 0 : waiting.size());
      if (!held && (taken >= permits || holds > 0)) {
        if (forRoll) {
          waiting.add(bucket);
        }
        return Started.NO_PERMIT;
      }
      waiting.remove(bucket);
      starting.add(bucket);
    }
    boolean merging = false;
    try {
      merging = start.merging();
    } finally {
      synchronized (this) {
        starting.remove(bucket);
        if (merging && !held) {
          holders.add(bucket);
        } else if (!merging) {
          holders.remove(bucket);
        }
      }
    }
    return merging ? Started.MERGING : Started.NOTHING;
  }

  /** Starts a compaction: whether a merge of it now runs. */
  @FunctionalInterface
  interface IOStart {
    boolean merging() throws IOException;
  }
}
