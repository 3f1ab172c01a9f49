package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A search reports the CPU its own threads spent ({@link SearchCpu}), over real HTTP: the job
 * inspector's {@code costs.cpuMs} and Splunk's job entry's {@code cpuDuration} are positive and
 * below the search's wall time times the threads it can run on (the search pool's and its own), and
 * {@code /metrics}' {@code quarry_search_cpu_seconds} counts every search with its CPU summed — in
 * batch mode (slices on the search pool) and time-ordered mode (one thread).
 */
class SearchCpuTest {
  private static final String PASSWORD = "cpu-password";
  private static final int THREADS = Runtime.getRuntime().availableProcessors() + 1;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path data;
  @AutoClose private static SearchTestServer quarry;

  @BeforeAll
  static void load() throws Exception {
    quarry = SearchTestServer.start(data, PASSWORD, settings -> settings);
    StringBuilder lines = new StringBuilder();
    java.util.Random random = new java.util.Random(41);
    for (int i = 0; i < 60_000; i++) {
      lines.append("line ").append(i).append(" status=").append(200 + random.nextInt(5) * 100);
      lines.append(" id=").append(Long.toHexString(random.nextLong())).append('\n');
    }
    quarry.loadRaw("app", lines.toString());
  }

  @Test
  void aBatchSearchReportsItsCpuBelowItsWallTimesItsThreads() throws Exception {
    assertCpuWithinWall(
        EventRunSearchTest.inspect(
            quarry.server(), PASSWORD, "index=main | stats count by status"));
  }

  @Test
  void aTimeOrderedSearchReportsItsCpu() throws Exception {
    assertCpuWithinWall(
        EventRunSearchTest.inspect(quarry.server(), PASSWORD, "index=main status=500 | head 5000"));
  }

  @Test
  void splunksJobEntryAndTheMetricsSayItToo() throws Exception {
    double before = metric("quarry_search_cpu_seconds_count");
    double sumBefore = metric("quarry_search_cpu_seconds_sum");
    HttpResponse<String> created =
        answered(
            quarry
                .request("/services/search/jobs")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "exec_mode=blocking&output_mode=json&search="
                            + URLEncoder.encode(
                                "search index=main | stats count by status",
                                StandardCharsets.UTF_8))));
    String sid = JSON.readTree(created.body()).path("sid").asText();
    assertThat(sid).as(created.body()).isNotEmpty();
    HttpResponse<String> entry =
        answered(quarry.request("/services/search/jobs/" + sid + "?output_mode=json"));
    JsonNode content = JSON.readTree(entry.body()).at("/entry/0/content");
    assertThat(content.path("isDone").asBoolean()).as(entry.body()).isTrue();
    double cpu = content.path("cpuDuration").asDouble();
    double wall = content.path("runDuration").asDouble();
    assertThat(cpu).as(entry.body()).isPositive().isLessThan((wall + 0.001) * THREADS);

    assertThat(metric("quarry_search_cpu_seconds_count")).isGreaterThanOrEqualTo(before + 1);
    assertThat(metric("quarry_search_cpu_seconds_sum")).isGreaterThan(sumBefore);
  }

  /**
   * A job's {@code runDurationMs} (and Splunk's {@code runDuration}) counts its planning — here an
   * {@code append} subsearch that runs a regex java.util.regex cannot memoize (~17 ms a row) — as
   * its {@code elapsedMs} and {@code cpuMs} do; before session 44 it began when the planned job
   * started running, so it was a few milliseconds against the inspector's hundreds.
   */
  @Test
  void aJobsRunDurationCountsItsPlanning() throws Exception {
    String query =
        "| makeresults count=1 | append [ | makeresults count=30"
            + " | eval s=\"aaaaaaaaaaaaaaaaaaaa!\" . random()"
            + " | where match(s, \"^(a+)+\\\\1$\") OR s!=\"\" | stats count ]";
    String id =
        JSON.readTree(
                answered(
                        quarry
                            .request("/api/v1/jobs")
                            .header("Content-Type", "application/json")
                            .POST(
                                HttpRequest.BodyPublishers.ofString(
                                    JSON.writeValueAsString(java.util.Map.of("query", query)))))
                    .body())
            .path("id")
            .asText();
    JsonNode status = null;
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < deadline) {
      status = job("/" + id);
      if (!status.path("state").asText().matches("QUEUED|RUNNING")) {
        break;
      }
      Thread.sleep(20);
    }
    assertThat(status.path("state").asText()).as(status.toString()).isEqualTo("DONE");
    JsonNode costs = job("/" + id + "/inspect").path("costs");
    long elapsedMs = costs.path("elapsedMs").asLong();
    assertThat(elapsedMs).as(costs.toString()).isGreaterThan(100); // the subsearch's regex
    assertThat(status.path("runDurationMs").asLong())
        .as("%s against %s", status, costs)
        .isGreaterThanOrEqualTo(elapsedMs);
  }

  private static JsonNode job(String path) throws Exception {
    return JSON.readTree(answered(quarry.request("/api/v1/jobs" + path)).body());
  }

  private static void assertCpuWithinWall(JsonNode inspect) {
    JsonNode costs = inspect.path("costs");
    assertThat(costs.path("cpuMs").isNumber()).as(inspect.toString()).isTrue();
    double cpuMs = costs.path("cpuMs").asDouble();
    long wallMs = costs.path("elapsedMs").asLong();
    assertThat(cpuMs).as(inspect.toString()).isPositive().isLessThan((wallMs + 1.0) * THREADS);
  }

  /** The metric {@code name} summed over its series (outcomes). */
  private static double metric(String name) throws Exception {
    return quarry.scrape().sum(name);
  }

  /** Sends {@code request} as admin, which must be answered 200 or 201. */
  private static HttpResponse<String> answered(HttpRequest.Builder request) throws Exception {
    HttpResponse<String> response = quarry.send(request);
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 201);
    return response;
  }
}
