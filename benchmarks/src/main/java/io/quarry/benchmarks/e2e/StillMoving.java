package io.quarry.benchmarks.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What kept Quarry's settle ({@link Measurements#settle(Measurements.StorageBytes,
 * Measurements.Compaction, java.util.function.LongSupplier, java.util.Map)}) from counting a poll
 * quiet, in words: printed and reported ({@code stillMoving}) when it gives up after ten minutes,
 * so a run that measured an unsettled store says why.
 */
final class StillMoving {
  private StillMoving() {}

  /**
   * What a poll that was not quiet saw moving: a running compaction, a due one, the size on disk
   * changing (from {@code lastBytes}, -1 before the first poll), the server's CPU over the idle
   * bound ({@code busyNanos}, -1 when it was not).
   */
  static List<String> of(
      Measurements.Compaction.State state, long lastBytes, long bytes, long busyNanos) {
    List<String> moving = new ArrayList<>();
    if (state.running()) {
      moving.add("a compaction running (" + state.compactions() + " done)");
    }
    if (state.due()) {
      moving.add(
          String.format(
              Locale.ROOT, "a compaction due (%,d fast bytes waiting)", state.pendingBytes()));
    }
    if (bytes != lastBytes) {
      moving.add(
          lastBytes < 0
              ? String.format(Locale.ROOT, "the size first read (%,d bytes)", bytes)
              : String.format(
                  Locale.ROOT, "the size changing (%,d -> %,d bytes)", lastBytes, bytes));
    }
    if (busyNanos >= 0) {
      moving.add(
          String.format(
              Locale.ROOT,
              "the server's CPU busy (%.0f ms in the poll's 2 s, idle below %d ms)",
              busyNanos / 1e6,
              Measurements.IDLE_CPU_NANOS_PER_POLL / 1_000_000));
    }
    return moving;
  }
}
