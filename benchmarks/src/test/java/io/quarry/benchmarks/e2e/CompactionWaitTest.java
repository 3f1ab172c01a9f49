package io.quarry.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The wait for a compact index goes on while the server makes progress — longer than the stall
 * limit in all, as a compaction on a loaded machine does — and fails once nothing moved for the
 * stall limit, or at its bound, saying what it waited for. The server's answers come in as a
 * sequence of states here (milliseconds where a 10M compaction takes minutes).
 */
class CompactionWaitTest {
  private static final Measurements.Compaction.State RUNNING =
      new Measurements.Compaction.State(true, false, 0, 1_000_000);
  private static final Measurements.Compaction.State DUE =
      new Measurements.Compaction.State(false, true, 0, 1_000_000);
  private static final Measurements.Compaction.State DONE =
      new Measurements.Compaction.State(false, false, 1, 0);

  @Test
  void aCompactionThatBurnsCpuIsWaitedForPastTheStallLimit() throws Exception {
    AtomicInteger polls = new AtomicInteger();
    AtomicLong cpu = new AtomicLong();
    // running for 300 polls of 5 ms (1.5 s at least, past the stall limit), using a core all along
    CompactionWait wait =
        new CompactionWait(
            () -> polls.incrementAndGet() < 300 ? RUNNING : DONE,
            () -> cpu.addAndGet(5_000_000L),
            Duration.ofSeconds(1),
            Duration.ofMinutes(1),
            5);
    long start = System.nanoTime();
    double seconds = wait.await("main", start);
    assertThat(polls.get()).isEqualTo(300);
    assertThat(seconds).isGreaterThan(1.5);
  }

  @Test
  void stateChangesCountAsProgressToo() throws Exception {
    AtomicInteger polls = new AtomicInteger();
    // a compaction whose waiting bytes shrink at every poll, no CPU figures (-1: unknown), for
    // longer than the stall limit in all
    CompactionWait wait =
        new CompactionWait(
            () -> {
              int poll = polls.incrementAndGet();
              return poll < 300
                  ? new Measurements.Compaction.State(true, false, 0, 1_000_000 - poll)
                  : DONE;
            },
            () -> -1,
            Duration.ofSeconds(1),
            Duration.ofMinutes(1),
            5);
    double seconds = wait.await("main", System.nanoTime());
    assertThat(polls.get()).isEqualTo(300);
    assertThat(seconds).isGreaterThan(1.5);
  }

  @Test
  void nothingMovingFailsSayingWhatItWaitedFor() {
    CompactionWait wait =
        new CompactionWait(
            () -> DUE, () -> 1_000L, Duration.ofMillis(100), Duration.ofMinutes(1), 5);
    assertThatThrownBy(() -> wait.await("main", System.nanoTime()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("index main is not compact")
        .hasMessageContaining("nothing moved")
        .hasMessageContaining("0 s without progress")
        .hasMessageContaining("a compaction due but not started")
        .hasMessageContaining("1,000,000 fast bytes waiting");
  }

  @Test
  void theServersIdleCpuIsNoProgress() {
    // 100 ms of CPU a second, as an idle server on a slow VM: over 5% of a core, so without its
    // idle level measured it counts as progress and only the bound ends the wait
    AtomicLong cpu = new AtomicLong();
    CompactionWait unmeasured =
        new CompactionWait(
            () -> DUE,
            () -> cpu.addAndGet(500_000L), // 0.5 ms in a 5 ms poll
            IdleCpu.unmeasured(),
            Duration.ofMillis(100),
            Duration.ofMillis(600),
            5);
    assertThatThrownBy(() -> unmeasured.await("main", System.nanoTime()))
        .hasMessageContaining("still moving at the bound");
    // against the server's idle level of 100 ms/s it is none: the stall limit ends it
    CompactionWait measured =
        new CompactionWait(
            () -> DUE,
            () -> cpu.addAndGet(500_000L),
            IdleCpu.of(java.util.List.of(100.0, 100.0, 100.0)),
            Duration.ofMillis(100),
            Duration.ofMillis(600),
            5);
    assertThatThrownBy(() -> measured.await("main", System.nanoTime()))
        .hasMessageContaining("nothing moved");
  }

  @Test
  void theBoundEndsAWaitThatStillMoves() {
    AtomicLong cpu = new AtomicLong();
    CompactionWait wait =
        new CompactionWait(
            () -> RUNNING,
            () -> cpu.addAndGet(5_000_000L),
            Duration.ofMinutes(1),
            Duration.ofMillis(150),
            5);
    assertThatThrownBy(() -> wait.await("hec", System.nanoTime()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("index hec is not compact")
        .hasMessageContaining("still moving at the bound")
        .hasMessageContaining("a compaction running");
  }

  @Test
  void aCompactIndexReturnsAtOnce() throws Exception {
    AtomicInteger polls = new AtomicInteger();
    new CompactionWait(
            () -> {
              polls.incrementAndGet();
              return DONE;
            },
            () -> 0,
            Duration.ofMillis(100),
            Duration.ofMinutes(1),
            5)
        .await("main", System.nanoTime());
    assertThat(polls.get()).isEqualTo(1);
  }
}
