package io.quarry.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What Quarry's settle says was still moving when it gave up, poll by poll. */
class StillMovingTest {
  @Test
  void eachReasonAPollWasNotQuietIsNamed() {
    assertThat(StillMoving.of(new Measurements.Compaction.State(true, false, 2, 0), 100, 100, -1))
        .containsExactly("a compaction running (2 done)");
    assertThat(
            StillMoving.of(
                new Measurements.Compaction.State(false, true, 0, 1_500_000), 100, 250, -1))
        .containsExactly(
            "a compaction due (1,500,000 fast bytes waiting)",
            "the size changing (100 -> 250 bytes)");
    assertThat(
            StillMoving.of(
                new Measurements.Compaction.State(false, false, 0, 0), 100, 100, 350_000_000L))
        .containsExactly("the server's CPU busy (350 ms in the poll's 2 s, idle below 100 ms)");
    assertThat(StillMoving.of(new Measurements.Compaction.State(false, false, 0, 0), -1, 7, -1))
        .containsExactly("the size first read (7 bytes)");
  }
}
