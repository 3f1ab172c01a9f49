package io.quarry.benchmarks.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What kept Quarry's settle ({@link QuarrySettle}) from counting a poll quiet, in words: printed
 * and reported ({@code stillMoving}) when it gives up after ten minutes, so a run that measured an
 * unsettled store says why.
 */
final class StillMoving {
  private StillMoving() {}

  /**
   * What a poll that was not quiet saw moving: a running compaction, a due one, the size on disk
   * changing (from {@code lastBytes}, -1 before the first poll), the server's CPU over what {@code
   * idle} counts busy ({@code busyMillisPerSecond}, ms of CPU per s in the poll; NaN when it was
   * not).
   */
  static List<String> of(
      Measurements.Compaction.State state,
      long lastBytes,
      long bytes,
      double busyMillisPerSecond,
      IdleCpu idle) {
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
    if (!Double.isNaN(busyMillisPerSecond)) {
      moving.add(
          String.format(
              Locale.ROOT,
              "the server's CPU busy (%.0f ms/s in the poll, %s)",
              busyMillisPerSecond,
              idle.describe()));
    }
    return moving;
  }
}
