package io.quarry.server.search;

import static io.quarry.server.PrometheusText.outcome;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.PrometheusText;
import io.quarry.server.TestServers;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review b44: a cancelled search is a cancelled search on {@code /metrics}, not a failed one — a
 * search job cancelled as it runs, and a streamed search whose client hangs up — so {@code
 * quarry_search_failures_total} and {@code quarry_searches_seconds_count{outcome="failed"}} do not
 * move while {@code outcome="cancelled"} does, once per search. A real server over HTTP.
 */
class CancelledSearchCountTest {
  private static final String PASSWORD = "cancelled-count-password";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A backreference java.util.regex cannot memoize: ~17 ms a row, hours for a million. */
  private static final String LONG =
      "| makeresults count=1000000 | eval s=\"aaaaaaaaaaaaaaaaaaaa!\" . random()"
          + " | where match(s, \"^(a+)+\\\\1$\") OR s!=\"\"";

  /**
   * Cheap rows, too many for the socket's buffers: a client that does not read holds the search (a
   * slow client slows it), so it is still running when the client hangs up.
   */
  private static final String MANY =
      "| makeresults count=1000000 | eval s=\"abcdefghij\" . random()";

  @TempDir static Path data;
  @AutoClose private static SearchTestServer quarry;

  @BeforeAll
  static void start() throws Exception {
    quarry = SearchTestServer.start(data, PASSWORD, settings -> settings);
  }

  @Test
  void aJobCancelledAsItRunsIsCancelledNotFailed() throws Exception {
    PrometheusText before = scrape();
    String id =
        JSON.readTree(
                quarry
                    .postJson("/api/v1/jobs", JSON.writeValueAsString(Map.of("query", LONG)))
                    .body())
            .path("id")
            .asText();
    JsonNode status = awaitState(id, "RUNNING");
    assertThat(status.path("state").asText()).as(status.toString()).isEqualTo("RUNNING");
    Thread.sleep(200); // into its scan
    HttpResponse<String> cancel =
        quarry.send(
            quarry
                .request("/api/v1/jobs/" + id + "/cancel")
                .POST(HttpRequest.BodyPublishers.noBody()));
    assertThat(cancel.statusCode()).as(cancel.body()).isLessThan(300);
    status = awaitEnd(id);
    assertThat(status.path("state").asText()).as(status.toString()).isEqualTo("CANCELLED");
    assertCancelledNotFailed(before);
  }

  @Test
  void aStreamWhoseClientHangsUpIsCancelledNotFailed() throws Exception {
    PrometheusText before = scrape();
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<InputStream> stream =
          http.send(
              quarry
                  .request("/api/v1/search")
                  .header("Authorization", TestServers.basic(PASSWORD))
                  .header("Content-Type", "application/json")
                  .header("Accept", "application/x-ndjson")
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          JSON.writeValueAsString(Map.of("query", MANY, "costs", true))))
                  .build(),
              HttpResponse.BodyHandlers.ofInputStream());
      assertThat(stream.statusCode()).isEqualTo(200);
      stream.body().readNBytes(100); // its first rows; then it waits on the full socket
      Thread.sleep(300);
      stream.body().close();
    }
    assertCancelledNotFailed(before);
  }

  private static void assertCancelledNotFailed(PrometheusText before) throws Exception {
    String cancelled = outcome("quarry_searches_seconds_count", "cancelled");
    String failed = outcome("quarry_searches_seconds_count", "failed");
    PrometheusText after = scrape();
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (after.value(cancelled) == before.value(cancelled) && System.nanoTime() < deadline) {
      Thread.sleep(50); // the search's slices stop
      after = scrape();
    }
    assertThat(after.value(cancelled) - before.value(cancelled)).as(after.toString()).isEqualTo(1);
    assertThat(after.value(failed) - before.value(failed)).as(after.toString()).isEqualTo(0);
    assertThat(after.failures() - before.failures()).as(after.toString()).isEqualTo(0);
  }

  private static JsonNode awaitState(String id, String state) throws Exception {
    JsonNode status = null;
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (System.nanoTime() < deadline) {
      status = JSON.readTree(quarry.get("/api/v1/jobs/" + id).body());
      if (status.path("state").asText().equals(state)) {
        break;
      }
      Thread.sleep(20);
    }
    return status;
  }

  private static JsonNode awaitEnd(String id) throws Exception {
    JsonNode status = null;
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (System.nanoTime() < deadline) {
      status = JSON.readTree(quarry.get("/api/v1/jobs/" + id).body());
      if (!status.path("state").asText().matches("QUEUED|RUNNING|CANCELLING")) {
        break;
      }
      Thread.sleep(20);
    }
    return status;
  }

  private static PrometheusText scrape() throws Exception {
    return quarry.scrape();
  }
}
