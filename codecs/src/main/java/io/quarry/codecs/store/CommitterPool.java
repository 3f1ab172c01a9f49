package io.quarry.codecs.store;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The committer threads of an {@link EventStore}: a bounded pool ({@code quarry-committer-<n>}, at
 * most {@code threads} of them, an idle one ending after a minute) that runs every index's periodic
 * work — commits, rolls, retention, background refreshes and compaction checks — through the
 * index's own serial queue ({@link IndexCommitQueue}), and one timer thread ({@code
 * quarry-committer-timer}) that only queues periodic work when it is due. Hundreds of indexes take
 * {@code threads + 1} threads, not one each.
 *
 * <p>An index's work never runs twice at once nor out of order, and an index whose commit stalls
 * (its disk's fsync hangs, a roll merges under its commit lock) holds at most one thread: one
 * thread for every index had made an index's commit wait 16-18 s for the others' under load, a
 * thread per index took hundreds of threads for hundreds of indexes; with a pool, a stalled index
 * delays the others only once as many indexes stall as the pool has threads ({@code
 * IndexCommitIsolationTest}, {@code CommitterPoolTest}). An add returns once the log's fsync holds
 * it: it waits for no bucket commit, roll or merge, only, when it appends while its own index's
 * commit rolls the write-ahead log, for that roll's fsync ({@link IndexCommits}).
 */
final class CommitterPool {
  /**
   * The default size: the work is mostly waiting for fsyncs, so more threads than cores, and enough
   * that a few stalled or rolling indexes leave the others a thread.
   */
  static final int DEFAULT_THREADS = 8;

  /** The largest pool: past it, a pool is no bound. */
  static final int MAX_THREADS = 1024;

  private final ThreadPoolExecutor workers;
  private final ScheduledThreadPoolExecutor timer;
  // every thread this pool started that may still be alive (ended ones dropped at each start)
  private final java.util.Queue<Thread> started =
      new java.util.concurrent.ConcurrentLinkedQueue<>();

  /** The most worker threads the pool runs ({@link #CommitterPool(int)}). */
  int threads() {
    return workers.getMaximumPoolSize();
  }

  /** A pool of at most {@code threads} committer threads (1 to {@link #MAX_THREADS}). */
  CommitterPool(int threads) {
    if (threads < 1 || threads > MAX_THREADS) {
      throw new IllegalArgumentException(
          "committer threads must be from 1 to " + MAX_THREADS + ": " + threads);
    }
    AtomicInteger numbers = new AtomicInteger();
    this.workers =
        new ThreadPoolExecutor(
            threads,
            threads,
            1,
            TimeUnit.MINUTES,
            new LinkedBlockingQueue<>(),
            daemons(() -> "quarry-committer-" + numbers.incrementAndGet()));
    workers.allowCoreThreadTimeOut(true);
    this.timer = new ScheduledThreadPoolExecutor(1, daemons(() -> "quarry-committer-timer"));
    timer.setRemoveOnCancelPolicy(true);
  }

  /**
   * Daemon threads (they never hold up the JVM's exit) named by {@code names}, each noted as this
   * pool's ({@link #liveThreads}).
   */
  private ThreadFactory daemons(java.util.function.Supplier<String> names) {
    return runnable -> {
      Thread thread = new Thread(runnable, names.get());
      thread.setDaemon(true);
      started.removeIf(ended -> ended.getState() == Thread.State.TERMINATED);
      started.add(thread);
      return thread;
    };
  }

  /**
   * This pool's threads that are alive now (workers and timer): what a test counts of its own
   * store, whatever other stores of the JVM run.
   */
  java.util.List<Thread> liveThreads() {
    return started.stream().filter(Thread::isAlive).toList();
  }

  /** A new serial queue for {@code index}'s work on this pool. */
  IndexCommitQueue queue(String index) {
    return new IndexCommitQueue(index, workers, timer);
  }

  /** Stops every thread at once, interrupting the work that runs (an open that failed). */
  void stopNow() {
    timer.shutdownNow();
    workers.shutdownNow();
  }

  /**
   * Stops timing periodic work and waits up to {@code seconds} for the work that runs or is queued:
   * not shutdownNow, since interrupting a background commit or refresh in the middle of its file
   * I/O makes Lucene's channel throw ClosedByInterruptException, which closes the IndexWriter as a
   * tragedy. Past the wait, what still runs is interrupted.
   */
  void stop(long seconds) {
    timer.shutdownNow(); // it only queues work: nothing of it runs long
    workers.shutdown();
    try {
      if (!workers.awaitTermination(seconds, TimeUnit.SECONDS)) {
        workers.shutdownNow();
      }
    } catch (InterruptedException e) {
      workers.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
