package io.quarry.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The stop rule of {@code --warmup-until-stable} over made-up compilation-time readings. */
class JitSettleTest {
  @Test
  void tooFewReadingsSayNothing() {
    assertThat(JitSettle.settled(List.of())).isFalse();
    assertThat(JitSettle.settled(List.of(100L))).isFalse();
    assertThat(JitSettle.settled(List.of(100L, 100L))).isFalse();
  }

  @Test
  void twoQuietRunsInARowSettle() {
    assertThat(JitSettle.settled(List.of(100L, 100L, 100L))).isTrue();
    // the bound is inclusive: 5 ms of compiling per run is still quiet
    assertThat(JitSettle.settled(List.of(100L, 400L, 405L, 410L))).isTrue();
  }

  @Test
  void aBusyRunAmongTheLastTwoKeepsWarming() {
    assertThat(JitSettle.settled(List.of(100L, 100L, 106L))).isFalse();
    assertThat(JitSettle.settled(List.of(100L, 300L, 300L))).isFalse();
    // quiet early on, busy since: what counts is the end
    assertThat(JitSettle.settled(List.of(100L, 100L, 100L, 180L, 181L))).isFalse();
  }
}
