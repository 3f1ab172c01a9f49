package io.quarry.codecs.store;

import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * An index's periodic work on its {@link IndexScheduler} (an {@link EventStore}'s: the index's
 * queue on the node's {@link CommitterPool}), scheduled in this order: the commit, with the roll of
 * a full hot bucket and the retention after it, every {@code commitInterval} ({@link
 * IndexCommits#scheduledMaintenance}); the background refresh of the hot bucket, every {@link
 * IndexStore#REFRESH_INTERVAL_MILLIS} unless no search opened it for {@link
 * IndexStore#SEARCH_IDLE_NANOS}; and the compaction check, as often ({@link #compactionCheck}),
 * right after the refresh in the same task (two tasks until session 46: each run of one wakes the
 * pool's timer thread and a worker, so an idle server with a few indexes woke twice as often).
 * Split out of {@link IndexStore} in session 40.
 */
final class IndexMaintenance {
  // IndexStore's logger: the messages are the index's, as before this class was split out
  private static final Logger LOG = Logger.getLogger(IndexStore.class.getName());

  private final String name;
  private final IndexWrites writes;
  private final IndexCommits commits;
  private final IndexCompaction compactions;
  private final IndexScheduler.Periodic committer;
  private final IndexScheduler.Periodic everySecond;

  /**
   * Schedules the index's periodic work (the scheduler's tasks: commit, refresh, compaction check).
   *
   * @param retention run after each scheduled commit ({@link Retention})
   */
  IndexMaintenance(
      String name,
      IndexOptions options,
      IndexScheduler scheduler,
      IndexWrites writes,
      IndexCommits commits,
      IndexCompaction compactions,
      IOAction retention) {
    this.name = name;
    this.writes = writes;
    this.commits = commits;
    this.compactions = compactions;
    this.committer =
        scheduler.repeat(
            () -> commits.scheduledMaintenance(retention), options.commitInterval().toMillis());
    // one task, not two: each wakes the pool's timer and a worker; in the order they ran as two
    this.everySecond =
        scheduler.repeat(
            () -> {
              refresh();
              compactionCheck();
            },
            IndexStore.REFRESH_INTERVAL_MILLIS);
  }

  /**
   * Refreshes the hot bucket so the next search's own refresh is cheap, unless nobody searched it
   * for {@link IndexStore#SEARCH_IDLE_NANOS}.
   */
  private void refresh() {
    Bucket current = writes.hot();
    try {
      if (current.needsRefresh() && current.nanosSinceAcquired() < IndexStore.SEARCH_IDLE_NANOS) {
        current.refresh(Long.MAX_VALUE);
      }
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.FINE, "index " + name + ": background refresh failed", e);
    }
  }

  /**
   * Starts the compaction ahead of the roll of a full bucket that waited for a permit (or,
   * compaction inline, rolls the waiting buckets, {@link IndexCommits#rollWaitingForPermit}), then
   * the hot bucket's deferred compaction when it is due ({@link IndexCompaction}); commits a hot
   * bucket whose compaction ended since its last commit ({@link IndexCommits#commitCompacted}).
   */
  private void compactionCheck() {
    if (!writes.closed()) {
      Bucket hot = writes.hot();
      commits.rolls().startWaiting(hot); // full buckets first: their wait holds back a roll
      commits.rollWaitingForPermit(); // an inline roll that found no permit free at its commit
      compactions.startIfDue(hot);
      commits.commitCompacted(hot);
    }
  }

  /** Schedules no more runs; a run in progress ends. */
  void cancel() {
    committer.cancel();
    everySecond.cancel();
  }
}
