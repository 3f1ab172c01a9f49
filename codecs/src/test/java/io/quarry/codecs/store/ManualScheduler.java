package io.quarry.codecs.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler that keeps the periodic tasks it is given (each store's maintenance, then its refresh
 * with the compaction check: one task since session 46) and runs none of them by itself: a test
 * runs them when it says so, on its own thread.
 */
final class ManualScheduler extends ScheduledThreadPoolExecutor {
  private final List<Runnable> periodic = new ArrayList<>();

  ManualScheduler() {
    super(1);
  }

  @Override
  public synchronized ScheduledFuture<?> scheduleWithFixedDelay(
      Runnable command, long initialDelay, long delay, TimeUnit unit) {
    periodic.add(command);
    return schedule(() -> {}, 1, TimeUnit.DAYS);
  }

  /** Runs the maintenance (commit, roll, retention) of the {@code store}-th store made. */
  synchronized void maintenance(int store) {
    periodic.get(2 * store).run();
  }

  /**
   * Runs the compaction check (an idle or bounded compaction) of the {@code store}-th store, after
   * its background refresh (the same periodic task).
   */
  synchronized void compaction(int store) {
    periodic.get(2 * store + 1).run();
  }
}
