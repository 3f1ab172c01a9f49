package io.quarry.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Quarry's settle judges the server's CPU against the server's own idle level ({@link IdleCpu}),
 * here against a real child JVM ({@link CpuBurner}) standing for a server: a process whose idle
 * cost is twice the old fixed bound (5% of a core) — which that bound never counted quiet, as on
 * the slow nights of session 45 — settles; one that burns well above the level it was measured at,
 * as a merge does, does not. The index's size is a real file's, unchanged; the compaction state is
 * what a server with none running or due answers.
 */
class QuarrySettleTest {
  @TempDir Path workDir;

  private Process burner;
  private Writer rate;

  @AfterEach
  void stop() throws Exception {
    if (burner != null) {
      burner.destroy();
      burner.waitFor();
    }
  }

  private void startBurner(long millisPerSecond) throws IOException {
    burner =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m",
                "-cp",
                System.getProperty("java.class.path"),
                CpuBurner.class.getName(),
                Long.toString(millisPerSecond))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    rate = new java.io.OutputStreamWriter(burner.getOutputStream(), StandardCharsets.UTF_8);
  }

  private void burn(long millisPerSecond) throws IOException {
    rate.write(millisPerSecond + "\n");
    rate.flush();
  }

  private long cpuNanos() {
    return burner.toHandle().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
  }

  private Map<String, Object> settle(IdleCpu idle, Duration bound) throws Exception {
    Path store = Files.writeString(workDir.resolve("segment"), "x".repeat(1000));
    Map<String, Object> outcome = new LinkedHashMap<>();
    new QuarrySettle(idle, bound, 1_000)
        .await(
            () -> Files.size(store),
            () -> new Measurements.Compaction.State(false, false, 0, 0),
            this::cpuNanos,
            outcome);
    return outcome;
  }

  @Test
  void aSteadyIdleCostAboveTheOldBoundSettles() throws Exception {
    startBurner(100); // twice the old bound of 50 ms/s
    Thread.sleep(1_000); // past the JVM's start
    IdleCpu idle = IdleCpu.measure(this::cpuNanos, IdleCpu.POLLS, 1_000);
    assertThat(idle.idleMillisPerSecond()).isGreaterThan(IdleCpu.FLOOR_MILLIS_PER_SECOND);

    // the old rule: every poll over 5% of a core, never three quiet in a row
    Map<String, Object> old = settle(IdleCpu.unmeasured(), Duration.ofSeconds(5));
    assertThat(old.get("settled")).isEqualTo(false);
    assertThat((int) old.get("pollsServerBusy")).isGreaterThanOrEqualTo(3);
    assertThat(old.get("stillMoving").toString()).contains("the server's CPU busy");

    Map<String, Object> outcome = settle(idle, Duration.ofSeconds(30));
    assertThat(outcome.get("settled")).isEqualTo(true);
    assertThat(outcome.get("pollsServerBusy")).isEqualTo(0);
    assertThat((double) outcome.get("idleCpuMsPerSecond")).isEqualTo(idle.idleMillisPerSecond());
    assertThat((List<?>) outcome.get("idleCpuPollsMsPerSecond")).hasSize(IdleCpu.POLLS);
  }

  @Test
  void aServerBurningWellAboveItsIdleLevelIsStillBusy() throws Exception {
    startBurner(100);
    Thread.sleep(1_000);
    IdleCpu idle = IdleCpu.measure(this::cpuNanos, IdleCpu.POLLS, 1_000);
    burn(700); // as a merge on one thread does, most of a core
    Map<String, Object> outcome = settle(idle, Duration.ofSeconds(5));
    assertThat(outcome.get("settled")).isEqualTo(false);
    assertThat((int) outcome.get("pollsServerBusy")).isGreaterThanOrEqualTo(3);
    assertThat(outcome.get("stillMoving").toString())
        .contains("the server's CPU busy")
        .contains("measured before the ingest");
  }
}
