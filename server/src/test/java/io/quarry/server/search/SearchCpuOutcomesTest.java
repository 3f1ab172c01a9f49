package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.PrometheusText;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The searches {@code cpuMs} and {@code quarry_search_cpu_seconds} left out before session 42, on a
 * real server over HTTP: a search that fails (here over its memory limit) is counted with its CPU
 * under {@code outcome="failed"} (before, a failed search recorded no CPU at all), a completed one
 * under {@code outcome="completed"}, and a metric search ({@code mstats}, whose scan reads slices
 * on the search pool) reports its CPU in the job inspector.
 */
class SearchCpuOutcomesTest {
  private static final String PASSWORD = "cpu-outcomes-password";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path data;
  private static QuarryServer server;

  @BeforeAll
  static void load() throws Exception {
    server =
        TestServers.start(
            data,
            PASSWORD,
            settings ->
                TestServers.withMetricIndex(settings, 10_000L)
                    .put("search.maxMemoryBytes", 2L * 1024 * 1024));
    StringBuilder lines = new StringBuilder();
    java.util.Random random = new java.util.Random(42);
    for (int i = 0; i < 80_000; i++) {
      lines.append("line ").append(i).append(" status=").append(200 + random.nextInt(5) * 100);
      lines.append(" id=").append(Long.toHexString(random.nextLong())).append('\n');
    }
    TestServers.loadRaw(server, lines.toString());
    StringBuilder points = new StringBuilder();
    for (int i = 0; i < 2_000; i++) {
      Map<String, Object> envelope = new LinkedHashMap<>();
      envelope.put("time", 1_700_000_000L + 10L * i);
      envelope.put("event", "metric");
      envelope.put("index", "m");
      envelope.put("host", "h" + (i % 20));
      envelope.put("fields", Map.of("metric_name:cpu.user", (i % 7) + 0.5));
      points.append(JSON.writeValueAsString(envelope)).append('\n');
    }
    TestServers.postEvents(server, TestServers.TOKEN, points.toString());
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @Test
  void aFailedSearchIsCountedWithItsCpu() throws Exception {
    double count = metric("quarry_search_cpu_seconds_count", "failed");
    double sum = metric("quarry_search_cpu_seconds_sum", "failed");
    // 80,000 distinct ids do not fit in 2 MiB of groups
    HttpResponse<String> failed =
        TestServers.export(server, PASSWORD, "search index=main | stats count by id");
    assertThat(failed.statusCode()).as(failed.body()).isEqualTo(422);
    assertThat(failed.body()).contains("MEMORY_LIMIT");

    assertThat(metric("quarry_search_cpu_seconds_count", "failed")).isEqualTo(count + 1);
    assertThat(metric("quarry_search_cpu_seconds_sum", "failed")).isGreaterThan(sum);
    assertThat(metric("quarry_searches_seconds_count", "failed")).isGreaterThanOrEqualTo(count + 1);
  }

  @Test
  void aCompletedSearchIsCountedUnderItsOutcome() throws Exception {
    double count = metric("quarry_search_cpu_seconds_count", "completed");
    double sum = metric("quarry_search_cpu_seconds_sum", "completed");
    TestServers.exportOk(server, PASSWORD, "search index=main status=500 | stats count");
    assertThat(metric("quarry_search_cpu_seconds_count", "completed")).isEqualTo(count + 1);
    assertThat(metric("quarry_search_cpu_seconds_sum", "completed")).isGreaterThan(sum);
  }

  @Test
  void aMetricSearchReportsItsCpu() throws Exception {
    String query = "| mstats avg(cpu.user) AS a where index=m by host";
    JsonNode inspect = EventRunSearchTest.inspect(server, PASSWORD, query);
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (inspect.at("/costs/rows").asLong() < 20 && System.nanoTime() < deadline) {
      Thread.sleep(100); // the points become searchable
      inspect = EventRunSearchTest.inspect(server, PASSWORD, query);
    }
    JsonNode costs = inspect.path("costs");
    assertThat(costs.path("rows").asLong()).as(inspect.toString()).isEqualTo(20);
    assertThat(costs.path("metrics").path("points").asLong())
        .as(inspect.toString())
        .isEqualTo(2_000);
    assertThat(costs.path("cpuMs").asDouble()).as(inspect.toString()).isPositive();
  }

  /** The value of {@code name} with label {@code outcome} on {@code /metrics}; 0 when absent. */
  private static double metric(String name, String outcome) throws Exception {
    return PrometheusText.scrape(server, PASSWORD).value(PrometheusText.outcome(name, outcome));
  }
}
