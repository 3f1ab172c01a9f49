package io.quarry.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class IdleCpuTest {

  @Test
  void theLevelIsTheQuietestPollSoAStartsTailDoesNotRaiseIt() {
    // the JIT's tail after the start made the first two polls busy; the third is the idle server
    IdleCpu idle = IdleCpu.of(List.of(400.0, 180.0, 20.0));
    assertThat(idle.idleMillisPerSecond()).isEqualTo(20.0);
    assertThat(idle.busyAboveMillisPerSecond()).isEqualTo(70.0); // 20 + the 50 ms/s floor
  }

  @Test
  void theBoundGrowsWithTheLevelUpToAQuarterOfACore() {
    assertThat(IdleCpu.of(List.of(74.0)).busyAboveMillisPerSecond()).isEqualTo(148.0);
    assertThat(IdleCpu.of(List.of(200.0)).busyAboveMillisPerSecond())
        .as("a squeezed merge still burns more than a quarter of a core: it must count busy")
        .isEqualTo(IdleCpu.CEILING_MILLIS_PER_SECOND);
    assertThat(IdleCpu.of(List.of(200.0)).busy(300_000_000L, 1_000_000_000L)).isTrue();
  }

  @Test
  void aServerIdlingAboveTheCeilingStillSettles() {
    IdleCpu idle = IdleCpu.of(List.of(300.0, 320.0, 310.0));
    assertThat(idle.busyAboveMillisPerSecond()).isEqualTo(350.0);
    assertThat(idle.busy(320_000_000L, 1_000_000_000L)).isFalse();
  }

  @Test
  void unmeasuredMeansTheFloorAlone() {
    assertThat(IdleCpu.unmeasured().busyAboveMillisPerSecond())
        .isEqualTo(IdleCpu.FLOOR_MILLIS_PER_SECOND);
  }
}
