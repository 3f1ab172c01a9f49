package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.Plugins;
import io.quarry.server.plugins.TestPlugins;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A search that fails after its streamed answer began ends it in a way no client takes for a
 * complete result (see {@link StreamFailure}): a typed error last in JSON, NDJSON and Splunk's
 * export, an aborted body in CSV and Arrow; one that fails before writing anything answers with its
 * error status; the server answers the next search. The failure is the test plugin command {@code
 * failafter rows=N}, which passes its first N rows and throws on the page holding the next.
 */
class StreamFailureTest {
  private static final String PASSWORD = "stream-failure-password";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  /** 30,000 rows failing after 20,000: past the 10,000 rows CSV and Arrow hold for their schema. */
  private static final String FAILS_LATE = "| makeresults count=30000 | failafter rows=20000";

  private static final String FAILS_AT_ONCE = "| makeresults count=10 | failafter rows=0";

  /** Failing inside the 10,000 rows every format holds to fix its columns' types. */
  private static final String FAILS_EARLY = "| makeresults count=3000 | failafter rows=2000";

  private static final String SUCCEEDS = "| makeresults count=3 | failafter rows=100";

  @TempDir static Path root;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    Path plugins = root.resolve("plugins");
    TestPlugins.install(plugins, "failafter", List.of(), List.of(FAIL_AFTER), "");
    server =
        TestServers.start(
            root.resolve("data"),
            PASSWORD,
            settings -> settings.put("plugins", new Plugins(plugins.toString())));
  }

  @Test
  void ndjsonEndsWithTheTypedErrorAfterTheRowsSent() throws Exception {
    double failedBefore = failedSearchRequests();
    HttpResponse<String> response = search("application/x-ndjson", FAILS_LATE);
    assertThat(response.statusCode()).isEqualTo(200);
    List<String> lines = response.body().lines().toList();
    assertThat(lines.size() - 1).as("rows before the error").isBetween(1024, 20_000);
    for (String row : lines.subList(0, lines.size() - 1)) {
      assertThat(JSON.readTree(row).has("error")).isFalse();
    }
    JsonNode error = JSON.readTree(lines.getLast()).get("error");
    assertThat(error.get("code").asText()).isEqualTo("PLUGIN_FAILED");
    assertThat(error.get("message").asText())
        .contains("command 'failafter' of plugin 'failafter' failed")
        .contains("more than 20000 rows");
    assertCountedAsFailed(failedBefore);
    assertHealthy();
  }

  /**
   * The request was counted as what it was, a failure, once the route returned (which may be just
   * after the client read the end).
   */
  private static void assertCountedAsFailed(double failedBefore) throws Exception {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (failedSearchRequests() < failedBefore + 1 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(failedSearchRequests()).isEqualTo(failedBefore + 1);
  }

  /** {@code POST /api/v1/search} requests counted with status 500 so far. */
  private static double failedSearchRequests() throws Exception {
    String metric =
        "quarry_http_requests_total{method=\"POST\",route=\"/api/v1/search\",status=\"500\"} ";
    String metrics =
        HTTP.send(
                HttpRequest.newBuilder(URI.create(server.url() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    return metrics
        .lines()
        .filter(line -> line.startsWith(metric))
        .mapToDouble(line -> Double.parseDouble(line.substring(metric.length())))
        .findFirst()
        .orElse(0);
  }

  @Test
  void rowsHeldForTheTypeSampleAreSentBeforeTheError() throws Exception {
    // JSON and NDJSON hold the first rows back to fix each column's type; a failure among them
    // still answers with the rows produced, then the error, as if they had streamed
    HttpResponse<String> ndjson = search("application/x-ndjson", FAILS_EARLY);
    assertThat(ndjson.statusCode()).isEqualTo(200);
    List<String> lines = ndjson.body().lines().toList();
    assertThat(lines.size() - 1).as("rows before the error").isBetween(1024, 2_000);
    assertThat(JSON.readTree(lines.getLast()).get("error").get("code").asText())
        .isEqualTo("PLUGIN_FAILED");
    HttpResponse<String> json = search("application/json", FAILS_EARLY);
    assertThat(json.statusCode()).isEqualTo(200);
    JsonNode document = JSON.readTree(json.body());
    int rows = 0;
    for (JsonNode page : document.get("pages")) {
      rows += page.get("rows").size();
    }
    assertThat(rows).isBetween(1024, 2_000);
    assertThat(document.get("error").get("message").asText()).contains("more than 2000 rows");
    assertHealthy();
  }

  @Test
  void jsonClosesItsDocumentWithAnErrorMember() throws Exception {
    HttpResponse<String> response = search("application/json", FAILS_LATE);
    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode document = JSON.readTree(response.body()); // whole: it parses
    int rows = 0;
    for (JsonNode page : document.get("pages")) {
      rows += page.get("rows").size();
    }
    assertThat(rows).isBetween(1024, 20_000);
    assertThat(document.get("error").get("code").asText()).isEqualTo("PLUGIN_FAILED");
    assertThat(document.get("error").get("message").asText()).contains("more than 20000 rows");
    assertHealthy();
  }

  @Test
  void csvAndArrowAreAbortedWithoutTheirEnd() throws Exception {
    for (String format : List.of("text/csv", "application/vnd.apache.arrow.stream")) {
      double failedBefore = failedSearchRequests();
      HttpResponse<InputStream> response = searchStreaming(format, FAILS_LATE);
      assertThat(response.statusCode()).as(format).isEqualTo(200);
      try (InputStream body = response.body()) {
        byte[] head = body.readNBytes(64 * 1024);
        assertThat(head).as(format + ": rows were sent").hasSize(64 * 1024);
        assertThatThrownBy(body::readAllBytes)
            .as(format + ": the body ends in an error, not as a complete answer")
            .isInstanceOf(IOException.class);
      }
      assertCountedAsFailed(failedBefore);
      assertHealthy();
    }
  }

  @Test
  void splunkExportEndsWithAFatalMessageAndNoLastRow() throws Exception {
    HttpResponse<String> response = TestServers.export(server, PASSWORD, FAILS_LATE);
    assertThat(response.statusCode()).isEqualTo(200);
    List<String> lines = response.body().lines().toList();
    assertThat(lines.size() - 1).isBetween(1024, 20_000);
    assertThat(response.body()).doesNotContain("lastrow");
    assertThat(JSON.readTree(lines.get(lines.size() - 2)).get("result")).isNotNull();
    JsonNode last = JSON.readTree(lines.getLast());
    assertThat(last.get("preview").asBoolean()).isFalse();
    assertThat(last.get("messages").get(0).get("type").asText()).isEqualTo("FATAL");
    assertThat(last.get("messages").get(0).get("text").asText())
        .contains("command 'failafter' of plugin 'failafter' failed");
    assertThat(last.get("error").get("code").asText()).isEqualTo("PLUGIN_FAILED");
    assertHealthy();
  }

  @Test
  void splunksPythonSdkReadsTheFatalMessage() throws Exception {
    JsonNode seen =
        PythonVenv.splunkSdk("/splunk-sdk/export_failure.py", server.port(), PASSWORD, FAILS_LATE);
    assertThat(seen.get("rows").asInt()).isBetween(1024, 20_000);
    assertThat(seen.get("messages").get(0).get(0).asText()).isEqualTo("FATAL");
    assertThat(seen.get("messages").get(0).get(1).asText())
        .contains("command 'failafter' of plugin 'failafter' failed");
  }

  @Test
  void quarrysJavaClientThrowsInsteadOfEndingShort() throws Exception {
    io.quarry.client.QuarryClient client =
        io.quarry.client.QuarryClient.builder(URI.create(server.url()))
            .adminPassword(PASSWORD)
            .build();
    long[] rows = {0};
    assertThatThrownBy(
            () -> {
              try (io.quarry.client.ResultStream stream = client.stream(FAILS_LATE, null, null)) {
                stream.forEachRemaining(page -> rows[0] += page.rows().size());
              }
            })
        .isInstanceOf(io.quarry.client.QuarryClientException.class)
        .hasMessageContaining("PLUGIN_FAILED")
        .hasMessageContaining("more than 20000 rows");
    assertThat(rows[0]).isBetween(1024L, 20_000L);
    assertThatThrownBy(() -> client.search(FAILS_LATE, null, null))
        .isInstanceOf(io.quarry.client.QuarryClientException.class)
        .hasMessageContaining("PLUGIN_FAILED");
  }

  @Test
  void aFailureBeforeAnyRowAnswersWithItsStatus() throws Exception {
    for (String format :
        List.of(
            "application/json",
            "application/x-ndjson",
            "text/csv",
            "application/vnd.apache.arrow.stream")) {
      HttpResponse<String> response = search(format, FAILS_AT_ONCE);
      assertThat(response.statusCode()).as(format).isEqualTo(500);
      assertThat(JSON.readTree(response.body()).get("error").get("code").asText())
          .isEqualTo("PLUGIN_FAILED");
    }
    HttpResponse<String> export = TestServers.export(server, PASSWORD, FAILS_AT_ONCE);
    assertThat(export.statusCode()).isEqualTo(500);
    assertThat(export.body()).contains("PLUGIN_FAILED");
    assertHealthy();
  }

  /** Every format answers a search that succeeds, whole, after the failures. */
  private static void assertHealthy() throws Exception {
    HttpResponse<String> ndjson = search("application/x-ndjson", SUCCEEDS);
    assertThat(ndjson.statusCode()).isEqualTo(200);
    assertThat(ndjson.body().lines()).hasSize(3);
    HttpResponse<String> csv = search("text/csv", SUCCEEDS);
    assertThat(csv.statusCode()).isEqualTo(200);
    assertThat(csv.body().lines()).hasSize(4); // header and three rows
    HttpResponse<String> export = TestServers.export(server, PASSWORD, SUCCEEDS);
    assertThat(export.body()).contains("\"lastrow\":true").doesNotContain("FATAL");
  }

  private static HttpResponse<String> search(String accept, String query) throws Exception {
    return HTTP.send(request(accept, query), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<InputStream> searchStreaming(String accept, String query)
      throws Exception {
    return HTTP.send(request(accept, query), HttpResponse.BodyHandlers.ofInputStream());
  }

  private static HttpRequest request(String accept, String query) throws Exception {
    return HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/search"))
        .header("Authorization", TestServers.basic(PASSWORD))
        .header("Accept", accept)
        .POST(
            HttpRequest.BodyPublishers.ofString(
                JSON.writeValueAsString(Map.of("query", query)), StandardCharsets.UTF_8))
        .build();
  }

  /** A streaming command that passes {@code rows} rows and throws on the page holding the next. */
  private static final TestPlugins.Command FAIL_AFTER =
      new TestPlugins.Command(
          "failafter",
          "passes rows, then throws",
          "STREAMING",
          "List.of(ArgumentSpec.optional(\"rows\", ArgumentType.LONG, \"0\", \"rows to pass\"))",
          """
          long rows = arguments.getLong("rows");
          return new BoundCommand() {
            public Set<String> requiredFields() { return Set.of(); }
            public Set<String> producedFields() { return Set.of(); }
            public Operator createOperator(OperatorContext context) {
              return new PageTransformOperator() {
                private long seen;

                protected Page process(Page input) {
                  seen += input.positionCount();
                  if (seen > rows) {
                    throw new IllegalStateException("more than " + rows + " rows");
                  }
                  return input;
                }
              };
            }
          };
          """);
}
