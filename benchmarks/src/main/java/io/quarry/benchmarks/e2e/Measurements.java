package io.quarry.benchmarks.e2e;

import io.quarry.client.QuarryClient;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How the harness times a search, the same for every engine: warm-up runs (at least so many, for at
 * least so long), then the measured runs, each query's figures as the report holds them; the wait
 * for an engine's files to settle before it is timed (Quarry's own: {@link QuarrySettle}); and
 * Quarry's concurrency run.
 */
final class Measurements {
  private final int warmup;
  private final double warmupSeconds;
  private final int runs;
  private final int warmupMax;
  private final PrintStream out = System.out;

  /** At least {@code warmup} warm-up runs for at least {@code warmupSeconds}, then {@code runs}. */
  Measurements(int warmup, double warmupSeconds, int runs) {
    this(warmup, warmupSeconds, runs, 0);
  }

  /**
   * As above; with {@code warmupMax} above 0 ({@code --warmup-until-stable}), a search given the
   * server's compilation time goes on warming up after those until the server's JIT has settled
   * ({@link JitSettle}), warming for the JIT up to {@code warmupMax} warm-up runs ({@code
   * warmupSeconds} may still make more).
   */
  Measurements(int warmup, double warmupSeconds, int runs, int warmupMax) {
    this.warmup = warmup;
    this.warmupSeconds = warmupSeconds;
    this.runs = runs;
    this.warmupMax = warmupMax;
  }

  /**
   * Waits until background merges are done — the index's size on disk unchanged over three polls
   * two seconds apart, three minutes at most — so storage is measured settled and the queries do
   * not share the cores with merging; returns the seconds waited.
   */
  double settle(StorageBytes storage) throws IOException, InterruptedException {
    long start = System.nanoTime();
    long deadline = start + TimeUnit.MINUTES.toNanos(3);
    long last = -1;
    int unchanged = 0;
    while (unchanged < 3 && System.nanoTime() < deadline) {
      Thread.sleep(2_000);
      long bytes = storage.bytes();
      unchanged = bytes == last ? unchanged + 1 : 0;
      last = bytes;
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    out.printf(
        "index settled (no merge running) after %.1f s more%s%n",
        seconds, unchanged < 3 ? " — gave up waiting, merges may still run" : "");
    return seconds;
  }

  /** The bytes an engine holds on disk now. */
  interface StorageBytes {
    long bytes() throws IOException;
  }

  /** Where an index's deferred compaction stands, as its server says. */
  interface Compaction {
    State state() throws IOException;

    /** Whether a compaction runs, whether one is due, how many are done, the bytes waiting. */
    record State(boolean running, boolean due, long compactions, long pendingBytes) {}
  }

  interface Run {
    void run() throws Exception;
  }

  void measure(String name, Timings timings, Run run) throws Exception {
    measure(name, timings, run, null);
  }

  /**
   * As {@link #measure(String, Timings, Run)}, and with {@code cpuNanos} (a process's CPU so far,
   * -1 when unknown) the process's CPU per measured run as well: for a server's work per query,
   * which the wall time hides when other processes share the cores.
   */
  void measure(String name, Timings timings, Run run, java.util.function.LongSupplier cpuNanos)
      throws Exception {
    measure(name, timings, run, cpuNanos, null);
  }

  /**
   * As {@link #measure(String, Timings, Run, java.util.function.LongSupplier)}, and with {@code
   * compileMillis} (the server's total JIT compilation time so far) and {@code
   * --warmup-until-stable}, warming up until the JIT has settled as well ({@link JitSettle}), at
   * most {@code warmupMax} warm-up runs for it; {@link Timings#jitSettled} says whether it did.
   */
  void measure(
      String name,
      Timings timings,
      Run run,
      java.util.function.LongSupplier cpuNanos,
      java.util.function.LongSupplier compileMillis)
      throws Exception {
    measure(name, timings, run, cpuNanos, compileMillis, null);
  }

  /**
   * As {@link #measure(String, Timings, Run, java.util.function.LongSupplier,
   * java.util.function.LongSupplier)}, and with {@code searchCpuNanos} (the CPU the server's
   * searches' own threads spent so far, as the server measures it; -1 when it does not say) that
   * CPU per measured run as well ({@link Timings#searchCpuMillis}): the query's own work, where the
   * process's CPU ({@code cpuNanos}) also holds the JIT's compilations and the collector's work.
   */
  void measure(
      String name,
      Timings timings,
      Run run,
      java.util.function.LongSupplier cpuNanos,
      java.util.function.LongSupplier compileMillis,
      java.util.function.LongSupplier searchCpuNanos)
      throws Exception {
    long warmupStarted = System.nanoTime();
    long warmupNanos = (long) (warmupSeconds * 1e9);
    boolean untilStable = warmupMax > 0 && compileMillis != null;
    List<Long> compiled = new ArrayList<>();
    if (untilStable) {
      compiled.add(compileMillis.getAsLong());
    }
    for (int i = 0;
        i < warmup
            || System.nanoTime() - warmupStarted < warmupNanos
            || untilStable && i < warmupMax && !JitSettle.settled(compiled);
        i++) {
      long start = System.nanoTime();
      run.run();
      timings.warmedUp(System.nanoTime() - start);
      if (untilStable) {
        compiled.add(compileMillis.getAsLong());
      }
    }
    if (untilStable) {
      timings.jitSettled(JitSettle.settled(compiled), compiled.getLast() - compiled.getFirst());
    }
    long searchCpuBefore = searchCpuNanos == null ? -1 : searchCpuNanos.getAsLong();
    long cpuBefore = cpuNanos == null ? -1 : cpuNanos.getAsLong();
    for (int i = 0; i < runs; i++) {
      long start = System.nanoTime();
      run.run();
      timings.add(System.nanoTime() - start);
    }
    long cpuAfter = cpuNanos == null ? -1 : cpuNanos.getAsLong();
    long searchCpuAfter = searchCpuNanos == null ? -1 : searchCpuNanos.getAsLong();
    if (cpuBefore >= 0 && cpuAfter >= 0 && runs > 0) {
      timings.cpuPerRun((cpuAfter - cpuBefore) / runs);
    }
    if (searchCpuBefore >= 0 && searchCpuAfter >= 0 && runs > 0) {
      timings.searchCpuPerRun((searchCpuAfter - searchCpuBefore) / runs);
    }
    out.printf(
        Locale.ROOT,
        "  %-40s median %10.1f ms  p95 %10.1f ms%s%s%s%n",
        name,
        timings.median(),
        timings.p95(),
        Double.isNaN(timings.cpuMillis())
            ? ""
            : String.format(Locale.ROOT, "  cpu %8.1f ms/run", timings.cpuMillis()),
        Double.isNaN(timings.searchCpuMillis())
            ? ""
            : String.format(Locale.ROOT, " (search's own %8.1f)", timings.searchCpuMillis()),
        timings.jitSettled() == null
            ? ""
            : String.format(
                Locale.ROOT,
                "  warm-up %d runs, JIT %s (%d ms compiling)",
                timings.warmupRuns(),
                timings.jitSettled() ? "settled" : "still compiling as the warm-up ended",
                timings.warmupCompileMillis()));
  }

  static Map<String, Object> summary(Timings timings, Answer answer) {
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("medianMs", timings.median());
    summary.put("p95Ms", timings.p95());
    summary.put("rows", answer.rows());
    summary.put("countSum", answer.countSum());
    summary.put("runsMs", timings.values());
    summary.put("firstMs", Double.isNaN(timings.firstMillis()) ? null : timings.firstMillis());
    summary.put("warmupRuns", timings.warmupRuns());
    if (timings.jitSettled() != null) {
      summary.put("warmupJitSettled", timings.jitSettled());
      summary.put("warmupCompileMs", timings.warmupCompileMillis());
    }
    if (!Double.isNaN(timings.cpuMillis())) {
      summary.put("serverCpuMs", timings.cpuMillis());
    }
    if (!Double.isNaN(timings.searchCpuMillis())) {
      summary.put("searchCpuMs", timings.searchCpuMillis());
    }
    return summary;
  }

  /** Mixed searches from the suite at each concurrency level: throughput and latency. */
  List<Map<String, Object>> concurrencyRun(
      QuarryClient client, List<Query> queries, List<Integer> concurrency, int concurrencyQueries)
      throws Exception {
    List<Map<String, Object>> levels = new ArrayList<>();
    for (int level : concurrency) {
      if (level <= 0) {
        continue;
      }
      int total = Math.max(concurrencyQueries, level);
      AtomicInteger next = new AtomicInteger();
      List<Timings> perThread = new ArrayList<>();
      ExecutorService pool = Executors.newFixedThreadPool(level);
      long start = System.nanoTime();
      try {
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < level; t++) {
          Timings timings = new Timings();
          perThread.add(timings);
          workers.add(
              pool.submit(
                  () -> {
                    for (int i = next.getAndIncrement(); i < total; i = next.getAndIncrement()) {
                      Query query = queries.get(i % queries.size());
                      long begin = System.nanoTime();
                      client.search(query.spl(), "0", null);
                      timings.add(System.nanoTime() - begin);
                    }
                    return null;
                  }));
        }
        for (Future<?> worker : workers) {
          worker.get();
        }
      } finally {
        pool.shutdownNow();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      Timings all = new Timings();
      for (Timings timings : perThread) {
        for (double millis : timings.values()) {
          all.add((long) (millis * 1e6));
        }
      }
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("concurrency", level);
      result.put("searches", total);
      result.put("seconds", seconds);
      result.put("searchesPerSecond", total / seconds);
      result.put("medianMs", all.median());
      result.put("p99Ms", all.p99());
      levels.add(result);
      out.printf(
          Locale.ROOT,
          "  concurrency %3d: %d searches in %.1f s = %.2f/s, median %.0f ms, p99 %.0f ms%n",
          level,
          total,
          seconds,
          total / seconds,
          all.median(),
          all.p99());
    }
    return levels;
  }
}
