package io.quarry.codecs.store;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Where an {@link IndexStore} runs its periodic work (commits and rolls, refreshes, compaction
 * checks): one task of the index at a time, in order. An {@link EventStore}'s indexes share its
 * {@link CommitterPool} ({@link IndexCommitQueue}); a single-thread scheduled executor is one too
 * ({@link #on}).
 */
@FunctionalInterface
interface IndexScheduler {
  /**
   * Runs {@code work} every {@code delayMillis} after the end of its last run (the first after
   * {@code delayMillis}) until cancelled.
   */
  Periodic repeat(Runnable work, long delayMillis);

  /** Work {@link #repeat repeated}: cancelling it lets a run in progress end and starts no more. */
  @FunctionalInterface
  interface Periodic {
    void cancel();
  }

  /**
   * The periodic work of one index on {@code scheduler}, whose single thread keeps it serial (the
   * work of every index on it shares that thread).
   */
  static IndexScheduler on(ScheduledExecutorService scheduler) {
    return (work, delayMillis) -> {
      ScheduledFuture<?> future =
          scheduler.scheduleWithFixedDelay(work, delayMillis, delayMillis, TimeUnit.MILLISECONDS);
      return () -> future.cancel(false);
    };
  }
}
