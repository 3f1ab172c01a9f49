package io.quarry.ql.engine.aggregation;

import java.util.concurrent.CancellationException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;

/**
 * Independent tasks {@code 0 … count-1} run by the calling thread and by helpers on an executor
 * (the search pool), each task taken by whichever thread asks next: the caller takes tasks too, so
 * the work ends even when no helper ever starts (a busy or shut-down pool), and returns once every
 * task taken has ended. What the tasks wrote is visible to the caller afterwards. The first failure
 * of a task is thrown to the caller (after the other taken tasks have ended); tasks not yet taken
 * are then skipped. Given a stop check (a cancelled search's), a thread asks it before each task it
 * takes: once it says stop, no thread runs a further task, and the caller throws a {@link
 * CancellationException} once the tasks already running have ended.
 */
final class SharedTasks {
  private final int count;
  private volatile IntConsumer task; // null once every task ended: a queued helper holds nothing
  private final BooleanSupplier stop;
  private volatile boolean stopped;
  private final AtomicInteger next = new AtomicInteger();
  private int ended; // guarded by this
  private Throwable failure; // guarded by this

  private SharedTasks(int count, IntConsumer task, BooleanSupplier stop) {
    this.count = count;
    this.task = task;
    this.stop = stop;
  }

  /**
   * Runs {@code task} for {@code 0 … count-1}, with up to {@code helpers} threads of {@code
   * parallel} besides the caller; {@code parallel} null: all on the caller.
   */
  static void run(int count, IntConsumer task, Executor parallel, int helpers) {
    run(count, task, parallel, helpers, NEVER);
  }

  /** A stop check that never says stop: every task runs. */
  static final BooleanSupplier NEVER = () -> false;

  /**
   * Runs as {@link #run(int, IntConsumer, Executor, int)} does, no task started once {@code stop}
   * says so.
   *
   * @throws CancellationException when {@code stop} said stop (and no task failed)
   */
  static void run(
      int count, IntConsumer task, Executor parallel, int helpers, BooleanSupplier stop) {
    SharedTasks tasks = new SharedTasks(count, task, stop);
    if (parallel != null) {
      for (int h = 0; h < Math.min(helpers, count - 1); h++) {
        try {
          parallel.execute(tasks::work);
        } catch (RejectedExecutionException busy) {
          break; // the caller does the rest
        }
      }
    }
    tasks.work();
    tasks.await();
  }

  /** Takes and runs tasks until none is left. */
  private void work() {
    IntConsumer task = this.task;
    if (task == null) {
      return;
    }
    for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
      Throwable failed = null;
      try {
        synchronized (this) {
          if (failure != null) {
            failed = failure; // skip: the caller throws the first failure
          }
        }
        if (failed == null && !stopped && stop.getAsBoolean()) {
          stopped = true; // this and every later task skipped, on every thread
        }
        if (failed == null && !stopped) {
          task.accept(i);
        }
      } catch (RuntimeException | Error e) {
        failed = e;
      }
      synchronized (this) {
        if (failed != null && failure == null) {
          failure = failed;
        }
        ended++;
        if (ended == count) {
          notifyAll();
        }
      }
    }
  }

  /** Waits until every task has ended; throws the first failure. */
  private synchronized void await() {
    boolean interrupted = false;
    while (ended < count) {
      try {
        wait();
      } catch (InterruptedException e) {
        interrupted = true; // the tasks taken by helpers still write into the caller's arrays
      }
    }
    task = null;
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (failure instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (failure instanceof Error error) {
      throw error;
    }
    if (stopped) {
      throw new CancellationException("search cancelled");
    }
  }
}
