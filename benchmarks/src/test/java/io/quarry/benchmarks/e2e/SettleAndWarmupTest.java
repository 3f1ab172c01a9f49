package io.quarry.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.benchmarks.data.AccessLogGenerator;
import io.quarry.client.QuarryClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The harness's waits on a real server: Quarry's settle waits for a compaction that starts only
 * after the index has been idle for 20 s (longer than the 6 s of stable size that used to count as
 * settled), and {@code --warmup-until-stable} stops within its bound and says per query how it
 * ended.
 */
class SettleAndWarmupTest {
  @TempDir Path workDir;

  @AfterEach
  void clear() {
    System.clearProperty("quarry.storage.compaction.idleMillis");
    System.clearProperty("quarry.storage.compaction.idleMinBytes");
  }

  @Test
  void settleWaitsForADueCompaction() throws Exception {
    System.setProperty("quarry.storage.compaction.idleMillis", "20000");
    System.setProperty("quarry.storage.compaction.idleMinBytes", "1");
    Path log = workDir.resolve("access.log");
    new AccessLogGenerator(20_000, 7).write(log, 1);
    List<String> lines = Files.readAllLines(log);
    try (QuarryProcess quarry =
        QuarryProcess.start(workDir, "512m", false, false, "blocks", null, null, false)) {
      IdleCpu idle = IdleCpu.measure(quarry::cpuNanos, IdleCpu.POLLS, QuarrySettle.POLL_MILLIS);
      QuarryClient hec = quarry.hecClient();
      for (int from = 0; from < lines.size(); from += 4_000) {
        String body = String.join("\n", lines.subList(from, from + 4_000)) + "\n";
        hec.sendRaw(
            body.getBytes(StandardCharsets.UTF_8), "access_combined", "main", "bench", "test");
      }
      Map<String, Object> outcome = new LinkedHashMap<>();
      long started = System.nanoTime();
      new QuarrySettle(idle)
          .await(
              () -> quarry.indexBytes("main"),
              () -> quarry.compaction("main"),
              quarry::cpuNanos,
              outcome);
      double seconds = (System.nanoTime() - started) / 1e9;
      assertThat(outcome.get("settled")).isEqualTo(true);
      assertThat((double) outcome.get("idleCpuMsPerSecond")).isNotNegative();
      // the compaction was due (the index not idle long enough yet) on some polls, then done
      assertThat(
              (int) outcome.get("pollsCompactionDue") + (int) outcome.get("pollsCompactionRunning"))
          .isPositive();
      assertThat((long) outcome.get("compactions")).isPositive();
      assertThat(quarry.compaction("main").compactions()).isPositive();
      assertThat(seconds).isGreaterThan(14);
    }
  }

  @Test
  void warmupUntilStableStopsWithinItsBound() throws Exception {
    int exit =
        new CommandLine(new EndToEnd())
            .execute(
                "--events=20000",
                "--runs=1",
                "--warmup=0",
                "--warmup-seconds=0",
                "--warmup-until-stable",
                "--warmup-max=8",
                "--heap=512m",
                "--hec-events=2000",
                "--concurrency=0",
                "--skip-duckdb",
                "--query=head_100,status_404_count",
                "--work-dir=" + workDir);
    assertThat(exit).isZero();
    JsonNode report = new ObjectMapper().readTree(workDir.resolve("latest.json").toFile());
    assertThat(report.path("ingest").path("quarrySettle").path("settled").asBoolean()).isTrue();
    assertThat(report.path("warmupUntilStable").asInt()).isEqualTo(8);
    JsonNode queries = report.path("queries");
    assertThat(queries.size()).isEqualTo(2);
    for (JsonNode entry : queries) {
      JsonNode quarry = entry.path("quarry");
      // at least the readings the rule needs, at most the bound; below it only when settled
      int runs = quarry.path("warmupRuns").asInt();
      assertThat(runs).isBetween(JitSettle.QUIET_RUNS, 8);
      assertThat(quarry.path("warmupJitSettled").isBoolean()).isTrue();
      assertThat(quarry.path("warmupJitSettled").asBoolean() || runs == 8).isTrue();
      assertThat(quarry.path("warmupCompileMs").asLong()).isNotNegative();
    }
  }
}
