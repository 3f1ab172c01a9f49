package io.quarry.benchmarks.e2e;

import java.util.List;

/**
 * When {@code --warmup-until-stable} stops warming a query: once the server's JIT has settled, that
 * is, the compilation time its JVM reports ({@code jvm_compilation_time_ms_total} on {@code
 * /metrics}, {@code CompilationMXBean.getTotalCompilationTime}) grew by at most {@link
 * #QUIET_MILLIS} over each of the last {@link #QUIET_RUNS} warm-up runs. Compilation never quite
 * stops (the metrics page itself and background work compile now and then), so the rule asks for
 * quiet, not for none; a query whose code is still compiled at the bound is reported as such.
 */
final class JitSettle {
  /** The compilation milliseconds one warm-up run may add and still count as quiet. */
  static final long QUIET_MILLIS = 5;

  /** How many quiet warm-up runs in a row make the JIT settled. */
  static final int QUIET_RUNS = 2;

  private JitSettle() {}

  /**
   * Whether the JIT has settled, given the server's total compilation milliseconds read before the
   * first warm-up run and after each one since ({@code readings.get(i)} after run {@code i}, the
   * first before any): the last {@link #QUIET_RUNS} differences each at most {@link #QUIET_MILLIS}.
   * Fewer readings than that say nothing yet: false.
   */
  static boolean settled(List<Long> readings) {
    if (readings.size() < QUIET_RUNS + 1) {
      return false;
    }
    for (int i = readings.size() - QUIET_RUNS; i < readings.size(); i++) {
      if (readings.get(i) - readings.get(i - 1) > QUIET_MILLIS) {
        return false;
      }
    }
    return true;
  }
}
