package io.quarry.benchmarks.e2e;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Repeated measurements of one thing, in milliseconds, summarised by nearest-rank percentiles; the
 * warm-up runs before them are counted, and the first (cold) one kept.
 */
final class Timings {
  private final List<Double> millis = new ArrayList<>();
  private double firstMillis = Double.NaN;
  private int warmupRuns;
  private double cpuMillis = Double.NaN;
  private double searchCpuMillis = Double.NaN;
  private Boolean jitSettled;
  private long warmupCompileMillis;

  /** A warm-up run: not measured, but the first one says what a cold run costs. */
  void warmedUp(long nanos) {
    if (warmupRuns++ == 0) {
      firstMillis = nanos / 1e6;
    }
  }

  /** The first warm-up run, or NaN when there was none. */
  double firstMillis() {
    return firstMillis;
  }

  /** The measured process's CPU per measured run (its every thread, not only the query's). */
  void cpuPerRun(long nanos) {
    cpuMillis = nanos / 1e6;
  }

  /**
   * The CPU the server's searches' own threads spent per measured run, as the server measures it
   * ({@code quarry_search_cpu_seconds}: no JIT, no garbage collection, no other request).
   */
  void searchCpuPerRun(long nanos) {
    searchCpuMillis = nanos / 1e6;
  }

  /** The searches' own CPU per measured run, or NaN when not measured (an older server). */
  double searchCpuMillis() {
    return searchCpuMillis;
  }

  /** The CPU per measured run, or NaN when not measured. */
  double cpuMillis() {
    return cpuMillis;
  }

  int warmupRuns() {
    return warmupRuns;
  }

  /**
   * With {@code --warmup-until-stable}: whether the warm-up ended with the server's JIT settled
   * (else it stopped at the bound), and the compilation milliseconds the server spent meanwhile.
   */
  void jitSettled(boolean settled, long compileMillis) {
    jitSettled = settled;
    warmupCompileMillis = compileMillis;
  }

  /** Whether the JIT settled during the warm-up; null when the warm-up did not watch it. */
  Boolean jitSettled() {
    return jitSettled;
  }

  /** The server's compilation milliseconds during the warm-up (0 when not watched). */
  long warmupCompileMillis() {
    return warmupCompileMillis;
  }

  void add(long nanos) {
    millis.add(nanos / 1e6);
  }

  int count() {
    return millis.size();
  }

  double median() {
    return percentile(50);
  }

  double p95() {
    return percentile(95);
  }

  double p99() {
    return percentile(99);
  }

  /** The nearest-rank percentile (with five runs, p95 is the slowest run). */
  double percentile(double p) {
    if (millis.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = new ArrayList<>(millis);
    Collections.sort(sorted);
    int rank = (int) Math.ceil(p / 100 * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }

  List<Double> values() {
    return List.copyOf(millis);
  }
}
