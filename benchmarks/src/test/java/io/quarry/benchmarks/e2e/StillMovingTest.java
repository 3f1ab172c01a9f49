package io.quarry.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What Quarry's settle says was still moving when it gave up, poll by poll. */
class StillMovingTest {
  @Test
  void eachReasonAPollWasNotQuietIsNamed() {
    assertThat(
            StillMoving.of(
                new Measurements.Compaction.State(true, false, 2, 0),
                100,
                100,
                Double.NaN,
                IdleCpu.unmeasured()))
        .containsExactly("a compaction running (2 done)");
    assertThat(
            StillMoving.of(
                new Measurements.Compaction.State(false, true, 0, 1_500_000),
                100,
                250,
                Double.NaN,
                IdleCpu.unmeasured()))
        .containsExactly(
            "a compaction due (1,500,000 fast bytes waiting)",
            "the size changing (100 -> 250 bytes)");
    assertThat(
            StillMoving.of(
                new Measurements.Compaction.State(false, false, 0, 0),
                100,
                100,
                175,
                IdleCpu.unmeasured()))
        .containsExactly(
            "the server's CPU busy (175 ms/s in the poll, busy above 50 ms/s, the server's idle"
                + " level unknown)");
    assertThat(
            StillMoving.of(
                new Measurements.Compaction.State(false, false, 0, 0),
                100,
                100,
                400,
                IdleCpu.of(List.of(80.0, 74.0, 300.0))))
        .containsExactly(
            "the server's CPU busy (400 ms/s in the poll, busy above 148 ms/s: its idle level 74"
                + " ms/s, measured before the ingest)");
    assertThat(
            StillMoving.of(
                new Measurements.Compaction.State(false, false, 0, 0),
                -1,
                7,
                Double.NaN,
                IdleCpu.unmeasured()))
        .containsExactly("the size first read (7 bytes)");
  }
}
