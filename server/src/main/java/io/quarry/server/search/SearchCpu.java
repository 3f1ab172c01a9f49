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
 * <p>A metric search's scan reads its parallel slices through the same view ({@code
 * MetricSearch.on}). While the search runs, its thread and its measured tasks know it as the {@link
 * #current} search, so work handed to the pool from inside the search without a view of its own —
 * the export route's encoding helpers, called with a page of the answer ({@link #onCurrent}) — is
 * counted too. Planning, which runs before the search starts, is measured by its caller ({@link
 * #threadNanos}, {@code auth.AdmittedSearch#plan}) and added by {@code SearchService.run}.
 *
 * <p>What it leaves out: the JIT's compiler threads and the garbage collector's (which the
 * process's CPU includes, and which a small query's runs mostly are). A search run inside another
 * search's task (a subsearch) counts in both. Where the JVM cannot measure thread CPU it is {@link
 * Duration#ZERO}.
 */
public final class SearchCpu {
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
  // the search this thread ran before this one started on it (an outer search, for a subsearch)
  private final SearchCpu outer;

  /** The search each thread is running now, if any: its own thread's, and its tasks'. */
  private static final ThreadLocal<SearchCpu> CURRENT = new ThreadLocal<>();

  private SearchCpu(ExecutorService searchPool) {
    this.pool = new Measured(requireNonNull(searchPool, "searchPool is null"));
    this.started = now();
    this.outer = CURRENT.get();
  }

  /**
   * Starts measuring a search that runs on this thread and hands tasks to {@code searchPool}; until
   * {@link #stop} it is this thread's {@link #current} search.
   */
  static SearchCpu start(ExecutorService searchPool) {
    SearchCpu cpu = new SearchCpu(searchPool);
    CURRENT.set(cpu);
    return cpu;
  }

  /** The search this thread runs now (its own thread, or one of its tasks), or null. */
  static SearchCpu current() {
    return CURRENT.get();
  }

  /**
   * An executor that runs each task on {@code searchPool}, measured on the account of the search
   * the handing thread runs at that moment ({@link #current}); a task handed over outside any
   * search is run as it is.
   */
  static java.util.concurrent.Executor onCurrent(ExecutorService searchPool) {
    requireNonNull(searchPool, "searchPool is null");
    return task -> {
      SearchCpu search = CURRENT.get();
      (search == null ? searchPool : search.pool).execute(task);
    };
  }

  /**
   * The CPU this thread has spent since it started, in nanoseconds (0 where the JVM does not
   * measure it): read twice around work done for a search outside its run, such as its planning.
   */
  public static long threadNanos() {
    return now();
  }

  /** The search pool, each task it runs for this search measured. */
  ExecutorService pool() {
    return pool;
  }

  /**
   * The CPU spent so far: this thread's since {@link #start} (call it once, on the thread that
   * started), and the pool's tasks that finished. The thread's current search is again the one it
   * ran before.
   */
  Duration stop() {
    if (outer == null) {
      CURRENT.remove();
    } else {
      CURRENT.set(outer);
    }
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
            SearchCpu before = CURRENT.get();
            CURRENT.set(SearchCpu.this);
            long started = now();
            try {
              task.run();
            } finally {
              nanos.add(now() - started);
              if (before == null) {
                CURRENT.remove();
              } else {
                CURRENT.set(before);
              }
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
