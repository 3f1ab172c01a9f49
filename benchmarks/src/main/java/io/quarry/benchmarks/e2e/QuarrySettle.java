package io.quarry.benchmarks.e2e;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Quarry's settle after an ingest, before the index's bytes are measured and its searches timed:
 * waits until the server says no compaction of the index runs and none is due ({@link
 * Measurements.Compaction}) and, over three polls two seconds apart in a row, the index's size on
 * disk is unchanged and the server's process was not busy — its CPU in the poll at most its idle
 * level plus a margin ({@link IdleCpu}) —, ten minutes at most. The server reports its hot bucket's
 * compaction (and a full bucket's until its roll), not Lucene's ordinary merges of warm buckets,
 * and a merge may write nothing for longer than the polls while it compresses, which fooled the
 * size alone; a merge burns CPU all along. Split out of {@link Measurements} in session 46, when
 * the CPU bound became the server's own idle level rather than a fixed 5% of a core.
 */
final class QuarrySettle {
  /** The longest wait. */
  static final Duration BOUND = Duration.ofMinutes(10);

  /** The time between polls. */
  static final long POLL_MILLIS = 2_000;

  /** Quiet polls in a row that make the index settled. */
  static final int QUIET_POLLS = 3;

  private final PrintStream out = System.out;
  private final IdleCpu idle;
  private final Duration bound;
  private final long pollMillis;

  /** The harness's settle, judging the server's CPU against {@code idle}. */
  QuarrySettle(IdleCpu idle) {
    this(idle, BOUND, POLL_MILLIS);
  }

  /** A settle that gives up after {@code bound}, polling every {@code pollMillis}. */
  QuarrySettle(IdleCpu idle, Duration bound, long pollMillis) {
    this.idle = java.util.Objects.requireNonNull(idle, "idle is null");
    this.bound = bound;
    this.pollMillis = pollMillis;
  }

  /**
   * Waits for index's {@code storage}, {@code compaction} and the server's CPU ({@code cpuNanos};
   * -1 when unknown: not checked) to be quiet. Prints what it waited for and returns the seconds
   * waited, and in {@code outcome} what it saw and the idle level it judged by; when it gave up,
   * what was still moving at the last poll that was not quiet ({@code stillMoving}: {@link
   * StillMoving}).
   */
  double await(
      Measurements.StorageBytes storage,
      Measurements.Compaction compaction,
      LongSupplier cpuNanos,
      Map<String, Object> outcome)
      throws IOException, InterruptedException {
    long start = System.nanoTime();
    long deadline = start + bound.toNanos();
    long last = -1;
    long cpu = cpuNanos.getAsLong();
    long cpuAt = System.nanoTime();
    int unchanged = 0;
    int pollsCompacting = 0;
    int pollsDue = 0;
    int pollsGrowing = 0;
    int pollsBusy = 0;
    double busiest = 0; // the most CPU a poll judged busy saw, ms/s
    Measurements.Compaction.State state = compaction.state();
    List<String> moving = List.of(); // what the last poll that was not quiet saw moving
    while (unchanged < QUIET_POLLS && System.nanoTime() < deadline) {
      Thread.sleep(pollMillis);
      long bytes = storage.bytes();
      state = compaction.state();
      long cpuNow = cpuNanos.getAsLong();
      long now = System.nanoTime();
      boolean busy = cpu >= 0 && cpuNow >= 0 && idle.busy(cpuNow - cpu, now - cpuAt);
      double cpuRate = busy ? IdleCpu.millisPerSecond(cpuNow - cpu, now - cpuAt) : Double.NaN;
      cpu = cpuNow;
      cpuAt = now;
      if (state.running()) {
        pollsCompacting++;
      } else if (state.due()) {
        pollsDue++;
      } else if (bytes != last) {
        pollsGrowing++;
      } else if (busy) {
        pollsBusy++;
        busiest = Math.max(busiest, cpuRate);
      }
      boolean quiet = !state.running() && !state.due() && !busy && bytes == last;
      if (!quiet) {
        moving = StillMoving.of(state, last, bytes, cpuRate, idle);
      }
      unchanged = quiet ? unchanged + 1 : 0;
      last = bytes;
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    boolean settled = unchanged >= QUIET_POLLS;
    outcome.put("settled", settled);
    outcome.put("seconds", seconds);
    outcome.put("pollsCompactionRunning", pollsCompacting);
    outcome.put("pollsCompactionDue", pollsDue);
    outcome.put("pollsSizeChanging", pollsGrowing);
    outcome.put("pollsServerBusy", pollsBusy);
    outcome.putAll(idle.report());
    outcome.put("compactions", state.compactions());
    outcome.put("pendingBytes", state.pendingBytes());
    String notSettled = "";
    if (!settled) {
      List<String> still = new ArrayList<>(moving);
      if (unchanged > 0) {
        still.add(
            0,
            "quiet for the last "
                + unchanged
                + " of the "
                + QUIET_POLLS
                + " polls needed, before that");
      }
      outcome.put("stillMoving", still);
      notSettled =
          String.format(
              Locale.ROOT,
              "NOT settled (gave up after %d s; still moving: %s)",
              bound.toSeconds(),
              still.isEmpty() ? "nothing seen" : String.join(", ", still));
    }
    out.printf(
        Locale.ROOT,
        "index %s after %.1f s more: waited %d polls for a running compaction, %d for a due one,"
            + " %d for the size to stop changing, %d for the server's CPU to go idle (%s%s); %d"
            + " compactions done, %,d fast bytes left (under the idle minimum: kept until the"
            + " roll)%n",
        settled ? "settled" : notSettled,
        seconds,
        pollsCompacting,
        pollsDue,
        pollsGrowing,
        pollsBusy,
        idle.describe(),
        pollsBusy > 0 ? String.format(Locale.ROOT, "; the busiest at %.0f ms/s", busiest) : "",
        state.compactions(),
        state.pendingBytes());
    return seconds;
  }
}
