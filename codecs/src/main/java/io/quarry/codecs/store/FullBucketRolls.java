package io.quarry.codecs.store;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The rolls of an index's full buckets (past their hot time, no longer taking events; their events
 * committed or in the log): each compacts ahead of its roll in the background, into the roll's own
 * segments, once the node has a permit for it ({@link CompactionPermits}) and no back-off after a
 * failed compaction holds it ({@link IndexCompaction#backingOff}), and a later commit rolls it once
 * no merge of it runs, so the roll's forced merge under the commit lock finds nothing to merge.
 * {@link IndexCommits} calls it under its commit lock, and rolls its hot bucket only while no full
 * bucket waits ({@link #anyWaiting}) or once the hot bucket took twice its limits ({@link
 * #overrun}) while fewer than {@code maxWaitingBuckets} wait ({@link #waitingFull}): then two (or
 * more, while compaction lags) full buckets wait, none rolled under the lock.
 *
 * <p>A scheduled roll that throws (a full disk, a manifest that cannot be written) is logged and
 * retried by a later commit, not before a delay that doubles with each failure of that bucket's
 * roll in a row, from {@link #FIRST_RETRY_NANOS} up to {@link #MAX_RETRY_NANOS}: it never stops the
 * hot bucket's commit that asked for it (the bucket keeps its events: committed, or in the log).
 * The delay is the bucket's own: another full bucket of the index whose roll can go on rolls
 * meanwhile (it was the index's, so one bucket whose roll kept failing held back every other's).
 */
final class FullBucketRolls {
  private static final Logger LOG = Logger.getLogger(IndexStore.class.getName());

  static final long FIRST_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
  static final long MAX_RETRY_NANOS = TimeUnit.MINUTES.toNanos(5);

  /** How many times its limits a hot bucket takes while an older full bucket waits. */
  static final long OVERRUN = 2;

  private final String name;
  private final List<Bucket> buckets; // the index's
  private final IndexCompaction compactions;
  private final IndexOptions options;

  /** The back-off of one bucket's roll after failures in a row: its delay, and when it ends. */
  private record Retry(long delayNanos, long notBefore) {}

  // by bucket id (a bucket reopened after a failed roll is another object); guarded by the commit
  // lock (IndexCommits)
  private final Map<Long, Retry> retries = new HashMap<>();

  FullBucketRolls(
      String name, List<Bucket> buckets, IndexCompaction compactions, IndexOptions options) {
    this.name = name;
    this.options = options;
    this.buckets = buckets;
    this.compactions = compactions;
  }

  /**
   * Starts the compaction ahead of a bucket that just filled (committed, a new hot bucket taking
   * the writes), or rolls it now: compaction inline (the roll compacts), or nothing to wait for. A
   * later {@link #rollWaiting} rolls it otherwise; a failure is logged and retried there.
   */
  void compactOrRoll(Bucket full) {
    try {
      if (!full.hotCompaction().compactBeforeRoll(compactions.node(), !compactions.backingOff())) {
        rollUnderPermit(full);
      }
      retries.remove(full.id());
    } catch (IOException | RuntimeException e) {
      failed(full, e);
    }
  }

  /**
   * Rolls each bucket but {@code hot} that waits for its roll and whose merges ended: when fast
   * segments are left (flushed by its last commit while an idle compaction ran, or after a restart)
   * another compaction starts first; one waiting for the node's permit, or backing off after a
   * failed compaction, starts its compaction later. A failure is logged and that bucket's roll
   * retried after its delay. With {@code now} (a roll asked for: tests, {@code quarry reindex}) it
   * rolls at once, waiting for the compaction under the commit lock, and a failure is thrown.
   */
  void rollWaiting(Bucket hot, boolean now) throws IOException {
    long nanos = System.nanoTime();
    for (Bucket bucket : buckets) {
      if (bucket == hot || bucket.isWarm()) {
        continue;
      }
      if (now) {
        roll(bucket);
        retries.remove(bucket.id());
        continue;
      }
      Retry retry = retries.get(bucket.id());
      try {
        if (retry != null && nanos - retry.notBefore() < 0) {
          // a bucket reopened after its failed roll waits again, starting nothing
          bucket.hotCompaction().compactBeforeRoll(compactions.node(), false);
        } else if (!bucket.hotCompaction().compactionMerging()
            && !bucket
                .hotCompaction()
                .compactBeforeRoll(compactions.node(), !compactions.backingOff())
            && rollUnderPermit(bucket)) {
          retries.remove(bucket.id());
        }
      } catch (IOException | RuntimeException e) {
        failed(bucket, e);
      }
    }
    // a bucket gone (rolled by another path, deleted, quarantined) leaves no back-off behind
    retries.keySet().removeIf(id -> buckets.stream().noneMatch(b -> b.id() == id && !b.isWarm()));
  }

  /**
   * Whether a bucket other than {@code hot} still waits for its roll: the hot bucket, full or not,
   * then goes on taking events, up to its {@link #overrun}, so no roll waits for a whole compaction
   * under the commit lock.
   */
  boolean anyWaiting(Bucket hot) {
    for (Bucket bucket : buckets) {
      if (bucket != hot && !bucket.isWarm()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the hot bucket, full while an older full bucket waits for its roll, has taken events
   * past {@link #OVERRUN} times its limits ({@code maxBucketEvents}, {@code maxHotAge}): it then
   * stops taking events and waits for its roll too, a new hot bucket taking them, so a bucket holds
   * at most twice its limits however far ingest outruns compaction.
   */
  boolean overrun(Bucket hot, long nowMillis) {
    long events = saturatedTimes(OVERRUN, options.maxBucketEvents());
    long age = saturatedTimes(OVERRUN, options.maxHotAge().toMillis());
    return hot.events() >= events || hot.events() > 0 && nowMillis - hot.created() >= age;
  }

  /** How many buckets other than {@code hot} wait for their roll (full, failed or rolling). */
  int waiting(Bucket hot) {
    int waiting = 0;
    for (Bucket bucket : buckets) {
      if (bucket != hot && !bucket.isWarm()) {
        waiting++;
      }
    }
    return waiting;
  }

  /**
   * Whether {@code maxWaitingBuckets} full buckets wait for their roll already: then a hot bucket
   * past its {@link #overrun} does not turn full too, and once it holds {@link #OVERRUN} times
   * {@code maxBucketEvents} it takes no more events ({@link #backlogged}).
   */
  boolean waitingFull(Bucket hot) {
    return waiting(hot) >= options.maxWaitingBuckets();
  }

  /**
   * Whether the index refuses events now ({@link IndexBusyException}): the hot bucket holds {@link
   * #OVERRUN} times {@code maxBucketEvents} while {@code maxWaitingBuckets} full buckets wait for
   * their roll. Its age past {@code maxHotAge} refuses nothing: only the bucket's size is bounded.
   * Read by every add, without the commit lock: a bucket's state is volatile.
   */
  boolean backlogged(Bucket hot) {
    return hot.events() >= saturatedTimes(OVERRUN, options.maxBucketEvents()) && waitingFull(hot);
  }

  private static long saturatedTimes(long factor, long value) {
    return value > Long.MAX_VALUE / factor ? Long.MAX_VALUE : factor * value;
  }

  /**
   * Starts the compaction ahead of the roll of each full bucket but {@code hot} that asked the node
   * for a permit and found none ({@link CompactionPermits#waitsForPermit}), once one is free: run
   * by the index's compaction check every second, so a waiting bucket does not wait for its index's
   * next commit. Rolls nothing (a commit does).
   */
  void startWaiting(Bucket hot) {
    if (compactions.backingOff()) {
      return;
    }
    for (Bucket bucket : buckets) {
      if (bucket == hot || !compactions.node().waitsForPermit(bucket)) {
        continue;
      }
      try {
        bucket.hotCompaction().compactBeforeRoll(compactions.node(), true);
      } catch (IOException | RuntimeException e) {
        LOG.log(Level.FINE, "index " + name + ": bucket " + bucket.id() + " not compacted", e);
      }
    }
  }

  /**
   * Whether a full bucket but {@code hot} whose roll compacts inline waits for the node's permit
   * ({@link #rollUnderPermit}): its index's compaction check then rolls it under the commit lock
   * once one is free ({@code IndexCommits#rollWaitingForPermit}), not its next commit. Read without
   * the commit lock, as {@link #startWaiting} is.
   */
  boolean inlineWaitingForPermit(Bucket hot) {
    for (Bucket bucket : buckets) {
      if (bucket != hot
          && !bucket.isWarm()
          && bucket.hotCompaction().inline()
          && compactions.node().waitsForPermit(bucket)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Rolls {@code bucket}, whose compaction ahead of the roll ended or found nothing to merge. A
   * roll that compacts (compaction inline: its forced merge merges the bucket's segments under the
   * commit lock) takes one of the node's {@link CompactionPermits} for its merge, as a deferred
   * compaction does, and a full bucket that finds none free waits for its roll, as one waiting for
   * its compaction does (its index's hot bucket takes events past its limits meanwhile, {@link
   * #anyWaiting}): its index's compaction check (every second) or a later commit rolls it once one
   * is free. Inline rolls of several indexes had compacted at once, unbounded, once each index
   * committed on its own thread.
   *
   * @return whether it rolled
   */
  private boolean rollUnderPermit(Bucket bucket) throws IOException {
    if (!bucket.hotCompaction().rollCompacts()) {
      roll(bucket);
      return true;
    }
    CompactionPermits.Started rolled =
        compactions
            .node()
            .startForRoll(
                bucket,
                () -> {
                  roll(bucket);
                  return false; // the merge ended with the roll: it keeps no permit
                });
    return rolled != CompactionPermits.Started.NO_PERMIT;
  }

  /** Rolls {@code bucket} to warm now. */
  void roll(Bucket bucket) throws IOException {
    bucket.roll();
    LOG.info(
        "index "
            + name
            + ": bucket "
            + bucket.id()
            + " rolled to warm with "
            + bucket.events()
            + " events");
  }

  private void failed(Bucket bucket, Exception e) {
    Retry last = retries.get(bucket.id());
    long retry =
        last == null ? FIRST_RETRY_NANOS : Math.min(2 * last.delayNanos(), MAX_RETRY_NANOS);
    retries.put(bucket.id(), new Retry(retry, System.nanoTime() + retry));
    LOG.log(
        Level.WARNING,
        "index "
            + name
            + ": bucket "
            + bucket.id()
            + " could not roll; its events stay searchable, the hot bucket commits, and the roll"
            + " is tried again in "
            + TimeUnit.NANOSECONDS.toMillis(retry)
            + " ms at the earliest",
        e);
  }
}
