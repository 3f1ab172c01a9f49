package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The CPU one search's own threads spend: the thread that runs the search (planning aside: the
 * driver of a time-ordered search, the final stages of a batch one, the writing of its answer onto
 * the pages' consumer) from {@link #start} to {@link #stop}, plus every task the search hands the
 * shared search pool through {@link #pool} (a batch search's slices, its aggregation's merge
 * helpers), each measured on the thread that runs it. Thread CPU ({@link
 * ThreadMXBean#getCurrentThreadCpuTime}) is read twice per task and twice on the search's thread:
 * per slice, not per page or event, so it costs well under a microsecond a slice. A task tells the
 * search it is done from inside its run, a moment before its measure ends: {@link #stop} waits for
 * the tasks that started to add their CPU (at most a second; a task still running then — a slice of
 * a cancelled search — is left out), and a task queued but not started when the search ended (it
 * returns at once, the search being done) is not counted.
 *
 * <p>What it leaves out: the JIT's compiler threads and the garbage collector's (which the
 * process's CPU includes, and which a small query's runs mostly are), and work the search does on
 * pools other than the search pool (a metric search's scan, which reads on the pool its {@code
 * MetricSearch} was given). A search run inside another search's task (a subsearch) counts in both.
 * Where the JVM cannot measure thread CPU it is {@link Duration#ZERO}.
 */
final class SearchCpu {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final boolean MEASURED =
      THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();

  /** How long {@link #stop} waits for tasks that started to account for themselves. */
  private static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final LongAdder nanos = new LongAdder();
  // tasks that started and have not added their CPU yet: a task signals its completion (a future,
  // a latch) from inside its run, before the measure around it ends, so the search may be done
  // with it a moment before its CPU is in
  private final AtomicInteger running = new AtomicInteger();
  private final ExecutorService pool;
  private final long started;

  private SearchCpu(ExecutorService searchPool) {
    this.pool = new Measured(requireNonNull(searchPool, "searchPool is null"));
    this.started = now();
  }

  /** Starts measuring a search that runs on this thread and hands tasks to {@code searchPool}. */
  static SearchCpu start(ExecutorService searchPool) {
    return new SearchCpu(searchPool);
  }

  /** The search pool, each task it runs for this search measured. */
  ExecutorService pool() {
    return pool;
  }

  /**
   * The CPU spent so far: this thread's since {@link #start} (call it on the thread that started),
   * and the pool's tasks that finished.
   */
  Duration stop() {
    if (!MEASURED) {
      return Duration.ZERO;
    }
    long spent = now() - started;
    long deadline = System.nanoTime() + SETTLE_NANOS;
    while (running.get() > 0 && System.nanoTime() < deadline) {
      LockSupport.parkNanos(20_000); // a finished task's last instructions; a cancelled one's end
    }
    return Duration.ofNanos(spent + nanos.sum());
  }

  private static long now() {
    return MEASURED ? THREADS.getCurrentThreadCpuTime() : 0;
  }

  /** The search pool, running each task under a measure of its thread's CPU. */
  private final class Measured extends AbstractExecutorService {
    private final ExecutorService delegate;

    Measured(ExecutorService delegate) {
      this.delegate = delegate;
    }

    @Override
    public void execute(Runnable task) {
      delegate.execute(
          () -> {
            running.incrementAndGet();
            long before = now();
            try {
              task.run();
            } finally {
              nanos.add(now() - before);
              running.decrementAndGet();
            }
          });
    }

    // the pool is shared by every search: one search's view of it does not shut it down

    @Override
    public void shutdown() {
      throw new UnsupportedOperationException("the search pool is shared");
    }

    @Override
    public List<Runnable> shutdownNow() {
      throw new UnsupportedOperationException("the search pool is shared");
    }

    @Override
    public boolean isShutdown() {
      return delegate.isShutdown();
    }

    @Override
    public boolean isTerminated() {
      return delegate.isTerminated();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
      return delegate.awaitTermination(timeout, unit);
    }
  }
}
