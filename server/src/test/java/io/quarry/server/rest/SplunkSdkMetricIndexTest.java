package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review b44: Splunk's own Python SDK ({@code splunk-sdk} 2.1.0, {@link PythonVenv}) against a real
 * server that has a metric index besides its event ones, as session 44 made Splunk's {@code
 * data/indexes} list metric indexes: {@code service.indexes} (no {@code datatype}) still lists the
 * event indexes alone, as Splunk's does, {@code datatype=metric|all} adds the metric one, an entry
 * read by name (Atom XML, its {@code bytesByKind} a nested dict) has its type, a {@code datatype}
 * Splunk does not have is an HTTP error the SDK raises; and an export read by the SDK's {@code
 * JSONResultsReader} has the same rows and messages with Quarry's {@code quarry_costs=true} as
 * without.
 */
class SplunkSdkMetricIndexTest {
  private static final String PASSWORD = "sdk-metric-pw";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long FIRST_SECOND = 1_767_225_600L; // 2026-01-01T00:00:00Z

  @TempDir static Path data;
  private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestServers.start(
            data, PASSWORD, settings -> TestServers.withMetricIndex(settings, 10_000L));
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 30; i++) {
      lines.append("2026-01-01 00:00:00 id=").append(i).append('\n');
    }
    TestServers.loadRaw(server, lines.toString());
    StringBuilder points = new StringBuilder();
    for (int i = 0; i < 20; i++) {
      points
          .append(
              JSON.writeValueAsString(
                  Map.of(
                      "time",
                      FIRST_SECOND + i,
                      "event",
                      "metric",
                      "index",
                      "m",
                      "fields",
                      Map.of("metric_name:cpu", i * 0.5))))
          .append('\n');
    }
    TestServers.postEvents(server, TestServers.TOKEN, points.toString());
    TestServers.awaitCount(server, PASSWORD, "main", 30, 300);
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (System.nanoTime() < deadline && points() < 20) {
      Thread.sleep(50); // the points are stored
    }
  }

  private static long points() throws Exception {
    try (java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient()) {
      String body =
          http.send(
                  java.net.http.HttpRequest.newBuilder(
                          java.net.URI.create(server.url() + "/api/v1/indexes"))
                      .header("Authorization", TestServers.basic(PASSWORD))
                      .build(),
                  java.net.http.HttpResponse.BodyHandlers.ofString())
              .body();
      return JSON.readTree(body).at("/metricIndexes/0/points").asLong();
    }
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @Test
  void splunksPythonSdkListsEventIndexesByDefaultAndMetricOnesWhenAsked() throws Exception {
    JsonNode seen = PythonVenv.splunkSdk("/splunk-sdk/metric_indexes.py", server.port(), PASSWORD);

    assertThat(seen.get("defaultNames").toString()).contains("\"main\"").doesNotContain("\"m\"");
    assertThat(seen.get("metricNames").toString()).isEqualTo("[\"m\"]");
    assertThat(seen.get("allNames").toString()).contains("\"main\"", "\"m\"");
    assertThat(seen.get("metricDatatype").asText()).isEqualTo("metric");
    assertThat(seen.get("metricPoints").asLong()).isEqualTo(20);
    assertThat(seen.get("mainDatatype").asText()).isEqualTo("event");
    assertThat(seen.get("mainJournalBytes").asLong()).isPositive();
    assertThat(seen.get("mainBytesByKind").size()).as(seen.toString()).isPositive();
    assertThat(seen.get("badDatatype").asInt()).isEqualTo(400);
  }

  @Test
  void splunksPythonSdkReadsTheSameExportWithTheCostsLine() throws Exception {
    JsonNode seen = PythonVenv.splunkSdk("/splunk-sdk/metric_indexes.py", server.port(), PASSWORD);

    assertThat(seen.get("export").toString())
        .isEqualTo("{\"messages\":[],\"rows\":[{\"count\":\"30\"}]}");
    assertThat(seen.get("exportWithCosts")).isEqualTo(seen.get("export"));
  }
}
