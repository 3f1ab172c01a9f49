package io.quarry.codecs.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The commits and bucket rolls of one index ({@link IndexStore}), under its commit lock: the
 * scheduled ones (every {@code commitInterval}, through the index's own committer queue, {@link
 * EventStore}) and those asked for.
 *
 * <p><b>Commits.</b> Every {@code commitInterval} the log is rolled to a new file, with only the
 * appends to the log paused for the roll's fsync; the adds that appended to the old file are
 * counted ({@link InFlightAdds}) and the commit waits for that count to drain — while the adds of
 * the new file go on — then the hot bucket commits and the older log files, all of whose events
 * were added by then, are deleted. Events added while a commit runs may or may not be in it, so
 * recovery replays exactly the log events whose {@code _seq} is not in any bucket: every
 * acknowledged event is in the index exactly once.
 *
 * <p><b>Buckets.</b> The hot bucket rolls to warm (merged, read-only, bounds in its manifest) when
 * it holds {@code maxBucketEvents} events or is {@code maxHotAge} old: a new hot bucket takes the
 * writes, the full one is committed and, with compaction deferred, compacted in the background
 * (Lucene's merge threads) into the roll's own segments, once the node grants it one of its {@link
 * CompactionPermits} permits; a later commit rolls it once no merge of its writer runs, so the
 * roll's forced merge, which holds the index's commit lock on the index's committer thread, merges
 * nothing. When the hot bucket fills while an older full bucket still waits, it goes on taking
 * events past its limit ({@link FullBucketRolls#anyWaiting}), so no scheduled roll compacts under
 * the commit lock and the node compacts at most its permits' buckets at once; at twice its limits
 * it waits for its roll too and a new hot bucket opens ({@link FullBucketRolls#overrun}), so no
 * bucket grows without bound when ingest outruns compaction; with {@code maxWaitingBuckets} full
 * buckets waiting already it does not, and at twice its event limit the index refuses adds ({@link
 * FullBucketRolls#backlogged}, {@link IndexBusyException}) until one of them rolled, so neither the
 * waiting buckets nor the hot one grow without bound. A roll that fails is retried with a back-off
 * and does not hold up the hot bucket's commit. A close leaves a waiting bucket as it is; the next
 * open starts its compaction again and does not wait for it.
 *
 * <p>The commit lock comes first, before the locks of {@link IndexWrites}.
 */
final class IndexCommits {
  private static final Logger LOG = Logger.getLogger(IndexStore.class.getName());

  private final String name;
  private final Path bucketsPath;
  private final IndexOptions options;
  private final Clock clock;
  private final BucketDirectories directories;
  private final List<Bucket> buckets; // the index's
  private final IndexCompaction compactions;
  private final FullBucketRolls rolls; // the full buckets' rolls, bounded by the node's permits
  private final IndexWrites writes;

  private final Object commitLock = new Object();
  // close's last commit: no bucket rolls or starts a compaction (the next open takes them up)
  private boolean closing; // guarded by commitLock

  IndexCommits(
      String name,
      Path bucketsPath,
      IndexOptions options,
      Clock clock,
      BucketDirectories directories,
      List<Bucket> buckets,
      IndexCompaction compactions,
      IndexWrites writes) {
    this.name = name;
    this.bucketsPath = bucketsPath;
    this.options = options;
    this.clock = clock;
    this.directories = directories;
    this.buckets = buckets;
    this.compactions = compactions;
    this.rolls = new FullBucketRolls(name, buckets, compactions, options);
    this.writes = writes;
  }

  /** The rolls of the index's full buckets. */
  FullBucketRolls rolls() {
    return rolls;
  }

  /** Commits to Lucene everything added so far and drops the log files that covered it. */
  void commit() throws IOException {
    synchronized (commitLock) {
      if (writes.closed()) {
        return;
      }
      commitLocked(false, false);
    }
  }

  /**
   * Commits the index when a compaction of its hot bucket ({@code hot}) ended since the bucket's
   * last commit (session 39): until a commit the last one still names the fast segments the
   * compaction replaced, so they stayed on disk for up to a commit interval (10 s) after an idle
   * compaction, and the e2e harness, settled by then, measured both (0.350 bytes per raw byte at 2M
   * instead of ~0.17).
   */
  void commitCompacted(Bucket hot) {
    if (!hot.hotCompaction().compactionUncommitted()) {
      return;
    }
    try {
      commit();
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.FINE, "index " + name + ": the commit after a compaction failed", e);
    }
  }

  /**
   * Rolls the log, commits the hot bucket and deletes the covered log files; with {@code
   * rollBucket} a new hot bucket takes writes and the full one turns warm: now with {@code
   * waitForRoll}, else once its compaction (started now, in the background) ended — a bucket past
   * its hot time whose compaction ended is rolled by each call ({@link
   * FullBucketRolls#rollWaiting}). Without {@code waitForRoll} the hot bucket does not roll while
   * an older full bucket still waits for its roll: it takes events past its limit until that one
   * rolled, and a roll's failure delays neither the commit nor the deletion of the log files.
   */
  private void commitLocked(boolean rollBucket, boolean waitForRoll) throws IOException {
    writes.recover();
    Bucket hot = writes.hot();
    if (!closing) {
      rolls.rollWaiting(hot, waitForRoll);
      if (rollBucket
          && !waitForRoll
          && rolls.anyWaiting(hot)
          && (!rolls.overrun(hot, clock.millis()) || rolls.waitingFull(hot))) {
        rollBucket = false; // past maxWaitingBuckets the adds are refused instead (backlogged)
      }
    }

    if (!hot.hasUncommittedChanges() && !rollBucket) {
      return;
    }
    Bucket next = null;
    if (rollBucket) {
      long id = hot.id() + 1;
      next =
          Bucket.open(
              id, bucketsPath.resolve(Long.toString(id)), options, clock.millis(), directories);
      compactions.join(next);
    }
    IndexWrites.LogRoll roll = writes.rollLog(next);
    Bucket committing = roll.committing();
    // every event logged before the roll is in the bucket before it is committed and the log
    // files that hold it are deleted
    roll.appendedBefore().awaitNone();
    if (rollBucket && waitForRoll) {
      rolls.roll(committing);
    } else if (rollBucket) {
      committing.commit();
      rolls.compactOrRoll(committing);
    } else {
      committing.commit();
    }
    writes.log().deleteBefore(roll.generation());
  }

  /** Periodic work: commit, roll the hot bucket when it is full or old, then {@code retention}. */
  void scheduledMaintenance(IOAction retention) {
    try {
      synchronized (commitLock) {
        if (writes.closed()) {
          return;
        }
        Bucket current = writes.hot();
        boolean full =
            current.events() >= options.maxBucketEvents()
                || (current.events() > 0
                    && clock.millis() - current.created() >= options.maxHotAge().toMillis());
        commitLocked(full, false);
      }
      retention.run();
    } catch (IOException | RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "index " + name + ": background commit failed; the log still holds the events",
          e);
    }
  }

  /**
   * The compaction check's part (every second): when a full bucket whose inline roll waited for the
   * node's permit ({@link FullBucketRolls#inlineWaitingForPermit}) is there, rolls, under the
   * commit lock, every full bucket waiting for its roll as a commit does ({@link
   * FullBucketRolls#rollWaiting}: the inline one once a permit is free now, so it does not wait for
   * the index's next commit, {@code commitInterval}, 10 s by default, while its index's hot bucket
   * grows past its limits). Every waiting bucket, not only the inline ones, by decision (session
   * 40): the others are rolled as the next commit would roll them, under the same lock on the same
   * queue, and the compaction mode is the index's, so in practice they are inline too (a deferred
   * one only after a restart that changed the mode); the cheap check without the lock stays
   * inline-only, so a deferred index takes no commit lock here every second. A failure is logged
   * and the roll retried as a commit's is.
   */
  void rollWaitingForPermit() {
    if (!rolls.inlineWaitingForPermit(writes.hot())) {
      return;
    }
    synchronized (commitLock) {
      if (writes.closed() || closing) {
        return;
      }
      try {
        rolls.rollWaiting(writes.hot(), false);
      } catch (IOException | RuntimeException e) {
        LOG.log(Level.WARNING, "index " + name + ": a waiting bucket could not roll", e);
      }
    }
  }

  /** Rolls the hot bucket to warm now (also used by tests and, later, by an admin command). */
  void rollHotBucket() throws IOException {
    synchronized (commitLock) {
      if (!writes.closed()) {
        commitLocked(true, true);
      }
    }
  }

  /**
   * Under the commit lock: rolls a hot bucket of the event layout to warm, then rewrites every warm
   * bucket of the event layout in the block layout ({@link IndexStore#convertToBlocks}).
   */
  List<BucketConversion.Result> convertToBlocks(
      BlockDocuments blocks, IndexStore.BucketProgress progress) throws IOException {
    synchronized (commitLock) {
      if (writes.closed()) {
        throw new IllegalStateException("index " + name + " is closed");
      }
      if (writes.hot().format() != BucketFormat.BLOCKS) {
        commitLocked(true, true);
      }
      return BucketConversion.convertWarm(name, buckets, options, blocks, directories, progress);
    }
  }

  /** Commits, then closes every bucket and the log. */
  void close() throws IOException {
    synchronized (commitLock) {
      if (writes.closed()) {
        return;
      }
      try {
        closing = true;
        commitLocked(false, false);
      } finally {
        writes.markClosed();
        // every acknowledged event is committed or in the log: running merges (a compaction) are
        // aborted, not waited for
        List<Closeable> closeables = new ArrayList<>();
        for (Bucket bucket : buckets) {
          closeables.add(bucket::closeAbortingMerges);
        }
        closeables.add(writes.log());
        org.apache.lucene.util.IOUtils.close(closeables);
      }
    }
  }
}
