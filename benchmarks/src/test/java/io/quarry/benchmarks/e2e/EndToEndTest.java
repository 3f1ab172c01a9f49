package io.quarry.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The whole harness at a small size: a real Quarry in a child JVM, real ingest, DuckDB in process,
 * and both engines giving the same answers.
 */
class EndToEndTest {
  @TempDir Path workDir;

  @Test
  void quarryAndDuckDbAgreeOnTheSuite() throws Exception {
    int exit =
        new CommandLine(new EndToEnd())
            .execute(
                "--events=30000",
                "--runs=1",
                "--warmup=0",
                "--heap=512m",
                "--hec-events=3000",
                "--concurrency=1,3",
                "--concurrency-queries=6",
                "--work-dir=" + workDir);
    assertThat(exit).isZero();
    JsonNode report = new ObjectMapper().readTree(workDir.resolve("latest.json").toFile());
    assertThat(report.path("ingest").path("quarryIngest").path("mbPerSecond").asDouble())
        .isPositive();
    assertThat(report.path("ingest").path("hecRaw").path("events").asInt()).isEqualTo(3000);
    assertThat(report.path("ingest").path("quarryBytesPerRawByte").asDouble()).isBetween(0.05, 2.0);
    JsonNode queries = report.path("queries");
    assertThat(queries.size()).isEqualTo(QuerySuite.queries(false).size());
    for (Query query : QuerySuite.queries(false)) {
      JsonNode entry = queries.path(query.name());
      JsonNode quarry = entry.path("quarry");
      JsonNode duck = entry.path("duckdb");
      assertThat(quarry.path("rows").asLong())
          .as(query.name())
          .isEqualTo(duck.path("rows").asLong());
      assertThat(quarry.path("countSum").asLong())
          .as(query.name())
          .isEqualTo(duck.path("countSum").asLong());
    }
    assertThat(queries.path("head_100").path("quarry").path("rows").asLong()).isEqualTo(100);
    assertThat(queries.path("count_by_clientip_indexed").path("quarry").path("countSum").asLong())
        .isEqualTo(30_000);
    // two by-fields, answered without DuckDB too: the (method, status) pairs of the generated log
    Map<String, Long> pairs = methodStatusPairs();
    assertThat(pairs.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(30_000);
    JsonNode byMethodStatus = queries.path("count_by_method_status").path("quarry");
    assertThat(byMethodStatus.path("rows").asLong()).isEqualTo(pairs.size()).isGreaterThan(1);
    assertThat(byMethodStatus.path("countSum").asLong()).isEqualTo(30_000);
    assertThat(report.path("concurrency")).hasSize(2);
    assertThat(report.path("commit").asText()).isNotBlank();
  }

  /** Each (method, status) pair of the generated access log's lines, counted by a regex here. */
  private Map<String, Long> methodStatusPairs() throws Exception {
    Path log;
    try (Stream<Path> files = Files.list(workDir)) {
      log =
          files
              .filter(f -> f.getFileName().toString().matches("access-30000-seed.*\\.log"))
              .findFirst()
              .orElseThrow();
    }
    Pattern request = Pattern.compile("\\] \"(\\S+) [^\"]* HTTP 1\\.1\" (\\d{3}) ");
    Map<String, Long> pairs = new HashMap<>();
    try (Stream<String> lines = Files.lines(log)) {
      lines.forEach(
          line -> {
            Matcher m = request.matcher(line);
            assertThat(m.find()).as(line).isTrue();
            pairs.merge(m.group(1) + " " + m.group(2), 1L, Long::sum);
          });
    }
    return pairs;
  }

  @Test
  void journalCompressionReachesTheServer() throws Exception {
    // stored uncompressed, the journal alone is as large as the raw text (zstd: about a sixth)
    int exit =
        new CommandLine(new EndToEnd())
            .execute(
                "--events=3000",
                "--runs=1",
                "--warmup=0",
                "--heap=512m",
                "--hec-events=300",
                "--concurrency=0",
                "--skip-duckdb",
                "--query=sessions_range",
                "--journal-compression=none",
                "--work-dir=" + workDir);
    assertThat(exit).isZero();
    assertThat(workDir.resolve("quarry.yml")).content().contains("journalCompression: none");
    JsonNode report = new ObjectMapper().readTree(workDir.resolve("latest.json").toFile());
    assertThat(report.path("journalCompression").asText()).isEqualTo("none");
    assertThat(report.path("ingest").path("quarryBytesPerRawByte").asDouble()).isGreaterThan(1.0);
    assertThat(report.path("queries").path("sessions_range").path("quarry").path("rows").asLong())
        .isPositive();
  }
}
