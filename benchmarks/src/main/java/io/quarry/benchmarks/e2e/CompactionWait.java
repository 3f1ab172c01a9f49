package io.quarry.benchmarks.e2e;

import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The wait for an index to be compact after an ingest (the server says no compaction runs and none
 * is due): for as long as the server makes progress — a compaction starts or ends, the bytes
 * waiting for one change, or the server's process burns CPU (a compaction compressing writes
 * nothing for a while, and on a loaded machine gets little of the cores) — and fails once nothing
 * moved for {@code stall}, or after {@code bound} in all, saying what it waited for. A fixed limit
 * (five minutes, until session 40) failed a 10M ingest whose level-9 rewrite shared the cores with
 * other builds.
 */
final class CompactionWait {
  /** No progress for this long fails the wait. */
  static final Duration STALL = Duration.ofMinutes(2);

  /** The wait fails after this long, progress or not. */
  static final Duration BOUND = Duration.ofMinutes(60);

  private final Measurements.Compaction compaction;
  private final LongSupplier cpuNanos;
  private final IdleCpu idle;
  private final Duration stall;
  private final Duration bound;
  private final long pollMillis;

  /**
   * Polls {@code compaction} every {@code pollMillis}; {@code cpuNanos} is the server's CPU so far
   * (-1 when unknown: only the server's answers count as progress). A poll in which the server used
   * more than 5% of a core counts as progress.
   */
  CompactionWait(
      Measurements.Compaction compaction,
      LongSupplier cpuNanos,
      Duration stall,
      Duration bound,
      long pollMillis) {
    this(compaction, cpuNanos, IdleCpu.unmeasured(), stall, bound, pollMillis);
  }

  /**
   * As above, a poll counting as progress when {@code idle} counts the server busy in it: above its
   * own idle level by a margin (session 46; the idle CPU of a slow VM's server, over 5% of a core,
   * had counted as progress for ever, so a stuck compaction was waited for the whole bound).
   */
  CompactionWait(
      Measurements.Compaction compaction,
      LongSupplier cpuNanos,
      IdleCpu idle,
      Duration stall,
      Duration bound,
      long pollMillis) {
    this.compaction = compaction;
    this.cpuNanos = cpuNanos;
    this.idle = java.util.Objects.requireNonNull(idle, "idle is null");
    this.stall = stall;
    this.bound = bound;
    this.pollMillis = pollMillis;
  }

  /**
   * Waits until index {@code name} is compact; returns the seconds since {@code start} ({@link
   * System#nanoTime}).
   *
   * @throws IOException when it did not get compact: no progress for {@code stall}, or {@code
   *     bound} passed; the message says how long it waited and where the compaction stood
   */
  double await(String name, long start) throws IOException, InterruptedException {
    long began = System.nanoTime();
    Measurements.Compaction.State last = compaction.state();
    long lastCpu = cpuNanos.getAsLong();
    long progressAt = began;
    long cpuSinceProgress = 0;
    while (last.running() || last.due()) {
      long now = System.nanoTime();
      if (now - progressAt > stall.toNanos() || now - began > bound.toNanos()) {
        boolean stalled = now - progressAt > stall.toNanos();
        throw new IOException(
            String.format(
                Locale.ROOT,
                "index %s is not compact: waited %.1f s for its compaction (at most %d s, and %d s"
                    + " without progress); %s; it ended with a compaction %s, %,d fast bytes"
                    + " waiting, %d compactions done, the server's CPU %.2f s since the last"
                    + " progress %.1f s ago",
                name,
                (now - began) / 1e9,
                bound.toSeconds(),
                stall.toSeconds(),
                stalled ? "nothing moved" : "still moving at the bound",
                last.running() ? "running" : "due but not started",
                last.pendingBytes(),
                last.compactions(),
                cpuSinceProgress / 1e9,
                (now - progressAt) / 1e9));
      }
      Thread.sleep(pollMillis);
      Measurements.Compaction.State state = compaction.state();
      long cpu = cpuNanos.getAsLong();
      long used = lastCpu >= 0 && cpu >= 0 ? cpu - lastCpu : 0;
      boolean busy = idle.busy(used, pollMillis * 1_000_000L);
      lastCpu = cpu;
      cpuSinceProgress += used;
      if (!state.equals(last) || busy) {
        progressAt = System.nanoTime();
        cpuSinceProgress = 0;
      }
      last = state;
    }
    return (System.nanoTime() - start) / 1e9;
  }
}
