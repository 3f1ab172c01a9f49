package io.quarry.codecs.store;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * When a hot bucket last took an event, on its ticker ({@link System#nanoTime} but in tests), and
 * the two decisions that follow from it — the one owner of the bucket's idle time ({@link
 * CompactionSettings#idle}):
 *
 * <ul>
 *   <li>the bucket is <b>idle</b> once no event was added for the idle time: its compaction may
 *       start ({@link BucketCompaction#startIfDue});
 *   <li>while it is not idle, its natural merges of fast segments <b>may wait</b> for that
 *       compaction ({@link CompactionMergePolicy}, "Natural merges of fast segments wait") — but
 *       not for longer than {@link #MAX_DEFERRAL_NANOS} since they first waited after the last
 *       compaction of the bucket ended: a bucket that never idles long enough (a busy {@code
 *       _internal}, a trickle whose gaps are shorter than the idle time) gets no idle compaction,
 *       so holding its fast segments back saves nothing and only multiplies what a search opens.
 *       Past that time they merge again (one at a time) until a compaction ends or the bucket is
 *       seen idle (an idle gap ends a burst, whether or not its compaction has run yet).
 * </ul>
 */
final class BucketActivity {
  /**
   * How long natural merges of fast segments wait, at most, for a compaction that does not come
   * (session 40). One minute: more than a whole 10M-line ingest at ~94 MB/s (27 s), which the
   * deferral is for, and a fraction of the time a trickle takes to reach {@link
   * CompactionMergePolicy#MAX_DEFERRED_FAST_SEGMENTS} segments at one flush per commit (10 s).
   */
  static final long MAX_DEFERRAL_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final LongSupplier ticker;
  private final long idleNanos;
  private volatile long lastAddNanos;
  // when natural merges first waited since the last compaction ended (valid while waiting)
  private volatile long waitingSinceNanos;
  private volatile boolean waiting;

  /**
   * @param idleNanos a bucket that took no event for this long is idle ({@link
   *     CompactionSettings#idleNanos})
   * @param ticker nanoseconds, as {@link System#nanoTime} (tests pass a clock they move)
   */
  BucketActivity(long idleNanos, LongSupplier ticker) {
    this.idleNanos = idleNanos;
    this.ticker = ticker;
    this.lastAddNanos = ticker.getAsLong();
  }

  /** An event was added now. */
  void added() {
    lastAddNanos = ticker.getAsLong();
  }

  /**
   * Whether no event was added for the idle time: the bucket's compaction may start. An idle gap
   * ends a burst: a yes also ends the natural merges' waiting, so the next burst's merges wait for
   * their whole deferral time even when the compaction has not run yet (it may wait for a permit).
   */
  boolean idle() {
    boolean idle = ticker.getAsLong() - lastAddNanos >= idleNanos;
    if (idle && waiting) {
      waiting = false;
    }
    return idle;
  }

  /**
   * Whether natural merges of fast segments may wait now: the bucket is not idle and they have not
   * waited for {@link #MAX_DEFERRAL_NANOS} since the last compaction ended. A yes starts that time
   * when it is not running yet.
   */
  boolean mayDefer() {
    if (idle()) {
      return false;
    }
    long now = ticker.getAsLong();
    if (!waiting) {
      waitingSinceNanos = now;
      waiting = true;
      return true;
    }
    return now - waitingSinceNanos < MAX_DEFERRAL_NANOS;
  }

  /**
   * A compaction merge of the bucket ended: the fast segments that waited for it are merged. (An
   * idle gap, seen by {@link #idle}, also ends the waiting.)
   */
  void compacted() {
    waiting = false;
  }
}
