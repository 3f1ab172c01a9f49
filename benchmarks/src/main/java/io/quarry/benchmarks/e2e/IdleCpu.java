package io.quarry.benchmarks.e2e;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * What Quarry's server process burns when it has nothing to do — its idle level, measured once it
 * answers and before anything is sent to it — and so when a poll of the settle ({@link
 * QuarrySettle}) counts the server busy: above that level by as much again (a margin of at least
 * {@link #FLOOR_MILLIS_PER_SECOND}), and never below the floor.
 *
 * <p>Until session 46 the settle counted a poll busy above a fixed 5% of a core ({@link
 * #FLOOR_MILLIS_PER_SECOND}). What an idle JVM costs depends on the machine: on a night when the VM
 * woke threads some 25 times slower than usual, an idle server with no data and no client used 74
 * ms/s (the JIT compiling, Netty's event loops, the timers of the job reaper, the committers and
 * the audit log), so no poll was ever quiet and every settle ran to its ten-minute bound. The
 * server's own idle level is what the same process costs on the same machine at the same hour; a
 * merge — what the CPU check is there for, since the server does not report Lucene's ordinary
 * merges — burns a core, far above it.
 */
final class IdleCpu {
  /**
   * The least CPU, in milliseconds per second of wall time, above which a poll counts busy: 5% of a
   * core, the fixed bound of the settle until session 46 (100 ms in a poll of 2 s).
   */
  static final double FLOOR_MILLIS_PER_SECOND = 50;

  /**
   * Where the bound stops growing with the idle level, in milliseconds per second: a quarter of a
   * core. A merge squeezed by other work on two cores still burns more than that, while a level
   * measured too high (a JIT tail right after the start) would otherwise lift the bound to where a
   * compressing merge, which writes nothing for a while, counts idle. The bound is never below the
   * idle level plus the floor, so a server that idles above this still settles.
   */
  static final double CEILING_MILLIS_PER_SECOND = 250;

  /** Polls of the idle server that make its level (the quietest of them). */
  static final int POLLS = 3;

  private final List<Double> readings; // ms of CPU per s of wall time, each poll; empty: unmeasured

  private IdleCpu(List<Double> readings) {
    this.readings = List.copyOf(readings);
  }

  /** The idle level of these polls' CPU, each in milliseconds per second of wall time. */
  static IdleCpu of(List<Double> readings) {
    return new IdleCpu(readings);
  }

  /** No idle level known (the server's CPU cannot be read): busy above the floor alone. */
  static IdleCpu unmeasured() {
    return new IdleCpu(List.of());
  }

  /**
   * Measures the idle level of a process whose CPU so far ({@code cpuNanos}, nanoseconds, -1 when
   * unknown) it polls {@code polls} times, {@code pollMillis} apart. Unmeasured when the CPU cannot
   * be read.
   */
  static IdleCpu measure(LongSupplier cpuNanos, int polls, long pollMillis)
      throws InterruptedException {
    List<Double> readings = new ArrayList<>();
    long cpu = cpuNanos.getAsLong();
    long at = System.nanoTime();
    for (int i = 0; i < polls && cpu >= 0; i++) {
      Thread.sleep(pollMillis);
      long cpuNow = cpuNanos.getAsLong();
      long now = System.nanoTime();
      if (cpuNow < 0) {
        return unmeasured();
      }
      readings.add(millisPerSecond(cpuNow - cpu, now - at));
      cpu = cpuNow;
      at = now;
    }
    return new IdleCpu(readings);
  }

  /** CPU {@code cpuNanos} over {@code wallNanos} of wall time, in milliseconds per second. */
  static double millisPerSecond(long cpuNanos, long wallNanos) {
    return wallNanos <= 0 ? 0 : cpuNanos / 1e6 / (wallNanos / 1e9);
  }

  /**
   * The idle level in milliseconds of CPU per second: the quietest poll (what is left of the start,
   * the JIT's tail, only ever raises a poll); NaN when unmeasured.
   */
  double idleMillisPerSecond() {
    return readings.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
  }

  /**
   * The CPU, in milliseconds per second, above which a poll counts busy: the idle level plus as
   * much again, the margin at least {@link #FLOOR_MILLIS_PER_SECOND}, and no higher than {@link
   * #CEILING_MILLIS_PER_SECOND} unless the idle level plus the floor is; the floor when unmeasured.
   */
  double busyAboveMillisPerSecond() {
    double idle = idleMillisPerSecond();
    if (Double.isNaN(idle)) {
      return FLOOR_MILLIS_PER_SECOND;
    }
    return Math.min(
        idle + Math.max(FLOOR_MILLIS_PER_SECOND, idle),
        Math.max(CEILING_MILLIS_PER_SECOND, idle + FLOOR_MILLIS_PER_SECOND));
  }

  /** Whether {@code cpuNanos} of CPU over {@code wallNanos} of wall time is busy. */
  boolean busy(long cpuNanos, long wallNanos) {
    return millisPerSecond(cpuNanos, wallNanos) > busyAboveMillisPerSecond();
  }

  /** What the settle compares with, in words, for its printed line. */
  String describe() {
    return Double.isNaN(idleMillisPerSecond())
        ? String.format(
            Locale.ROOT,
            "busy above %.0f ms/s, the server's idle level unknown",
            busyAboveMillisPerSecond())
        : String.format(
            Locale.ROOT,
            "busy above %.0f ms/s: its idle level %.0f ms/s, measured before the ingest",
            busyAboveMillisPerSecond(),
            idleMillisPerSecond());
  }

  /** The report's figures: the idle level and its polls (null when unmeasured), the bound. */
  Map<String, Object> report() {
    Map<String, Object> report = new LinkedHashMap<>();
    double idle = idleMillisPerSecond();
    report.put("idleCpuMsPerSecond", Double.isNaN(idle) ? null : idle);
    report.put("idleCpuPollsMsPerSecond", readings);
    report.put("busyAboveCpuMsPerSecond", busyAboveMillisPerSecond());
    return report;
  }
}
