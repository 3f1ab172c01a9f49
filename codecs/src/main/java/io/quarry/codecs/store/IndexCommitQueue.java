package io.quarry.codecs.store;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One index's queue of periodic work on the node's shared {@link CommitterPool}: a serial executor.
 * Its tasks run one at a time, in the order they were queued, each on whichever pool thread is free
 * — never two of the index at once, so the index's work needs no more locking than on a thread of
 * its own. A queue asks the pool for one thread at a time and gives it back after each task (the
 * next task queues behind the other indexes' work), so an index whose task stalls (an fsync that
 * hangs, a roll's forced merge) holds one pool thread and delays only its own later work; the other
 * indexes go on while the pool has a thread left.
 *
 * <p>While it runs a task, the pool thread's name ends with the index's in brackets ({@code
 * quarry-committer-3 [web]}), so a thread dump of a stalled commit names its index; the name is the
 * pool's again once the task ended.
 *
 * <p>Periodic work ({@link #repeat}) waits on the pool's timer, which only queues it here; its next
 * run is timed when a run ends (a fixed delay), so a stalled index never piles up runs of one task.
 */
final class IndexCommitQueue implements IndexScheduler {
  private static final Logger LOG = Logger.getLogger(IndexStore.class.getName());

  private final String index;
  private final Executor workers;
  private final ScheduledExecutorService timer;

  private final ArrayDeque<Runnable> tasks = new ArrayDeque<>(); // guarded by this
  // a pool thread runs this queue's tasks or was asked to; guarded by this
  private boolean draining;
  // the thread running one of the tasks now, null between tasks: two at once trip an assertion
  // (tests run with -ea); guarded by this
  private Thread running;

  /**
   * A queue for {@code index}'s work, run on {@code workers}, its periodic work timed by {@code
   * timer} (which must never block: it only queues).
   */
  IndexCommitQueue(String index, Executor workers, ScheduledExecutorService timer) {
    this.index = requireNonNull(index, "index is null");
    this.workers = requireNonNull(workers, "workers is null");
    this.timer = requireNonNull(timer, "timer is null");
  }

  /**
   * Queues {@code task} behind the index's earlier tasks. Once the pool stopped, the task is
   * dropped (the store closes: its close commits on the caller's thread).
   */
  void execute(Runnable task) {
    requireNonNull(task, "task is null");
    boolean start;
    synchronized (this) {
      tasks.add(task);
      start = !draining;
      draining = true;
    }
    if (start) {
      runNextOnPool();
    }
  }

  private void runNextOnPool() {
    try {
      workers.execute(this::runNext);
    } catch (RejectedExecutionException stopped) {
      synchronized (this) {
        tasks.clear();
        draining = false;
      }
    }
  }

  /** Runs the oldest task, then gives the thread back, asking for another if more are queued. */
  private void runNext() {
    Runnable task;
    synchronized (this) {
      assert running == null : index + "'s task runs on " + running + " already";
      running = Thread.currentThread();
      task = tasks.poll();
    }
    Thread thread = Thread.currentThread();
    String poolName = thread.getName();
    thread.setName(poolName + " [" + index + "]"); // a thread dump names the index it works for
    try {
      if (task != null) {
        task.run();
      }
    } finally {
      thread.setName(poolName);
      boolean more;
      synchronized (this) {
        running = null;
        more = !tasks.isEmpty();
        draining = more;
      }
      if (more) {
        runNextOnPool();
      }
    }
  }

  @Override
  public Periodic repeat(Runnable work, long delayMillis) {
    if (delayMillis < 1) {
      throw new IllegalArgumentException("delayMillis must be positive: " + delayMillis);
    }
    Repeated repeated = new Repeated(requireNonNull(work, "work is null"), delayMillis);
    repeated.scheduleNext();
    return repeated::cancel;
  }

  /** Work run every {@code delayMillis} after its last run ended, until cancelled. */
  private final class Repeated {
    private final Runnable work;
    private final long delayMillis;
    private volatile boolean cancelled;
    private ScheduledFuture<?> next; // guarded by this

    Repeated(Runnable work, long delayMillis) {
      this.work = work;
      this.delayMillis = delayMillis;
    }

    synchronized void scheduleNext() {
      if (cancelled) {
        return;
      }
      try {
        next = timer.schedule(() -> execute(this::run), delayMillis, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException stopped) {
        next = null; // the pool stopped: the store closes
      }
    }

    private void run() {
      if (cancelled) {
        return;
      }
      try {
        work.run();
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "index " + index + ": periodic work failed; it runs again", e);
      } finally {
        scheduleNext();
      }
    }

    void cancel() {
      cancelled = true;
      synchronized (this) {
        if (next != null) {
          next.cancel(false);
        }
      }
    }
  }
}
