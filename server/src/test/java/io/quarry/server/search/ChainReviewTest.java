package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Review of the chain lane: time-ordered chains over no events, and a written table's chain. */
class ChainReviewTest {
  private static final String PASSWORD = "chain-review-password";
  private static final String TOKEN = "chain-review-token";
  private static final long START = 1767780000L;
  private static final int EVENTS = 3000;

  @TempDir static Path root;
  private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.startLayouts(root.resolve("data"), PASSWORD, TOKEN, Map.of());
    for (String index : List.of("ev", "bl")) {
      for (int from = 0; from < EVENTS; from += 250) {
        post(index, from, from + 250);
      }
    }
  }

  private static void post(String index, int from, int to) throws Exception {
    StringBuilder body = new StringBuilder();
    for (int i = from; i < to; i++) {
      body.append(
          String.format(
              "{\"time\":%d,\"host\":\"h%d\",\"sourcetype\":\"st\",\"index\":\"%s\","
                  + "\"event\":\"event %d level %s\",\"fields\":{\"level\":\"%s\"}}%n",
              START + i * 7L, i % 3, index, i, i % 5 == 0 ? "warn" : "info", "x"));
    }
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.url() + "/services/collector/event"))
                    .header("Authorization", "Splunk " + TOKEN)
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  private static SearchStats stats(String query) throws Exception {
    return server.search().run(query, server.search().plan(query, null, null), page -> {});
  }

  private static List<String> results(
      String query, java.util.function.Function<JsonNode, String> cells) throws Exception {
    HttpResponse<String> response = TestServers.export(server, PASSWORD, query);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    List<String> results = new ArrayList<>();
    ObjectMapper json = new ObjectMapper();
    for (String line : response.body().split("\n")) {
      JsonNode result = line.isBlank() ? null : json.readTree(line).get("result");
      if (result != null) {
        results.add(cells.apply(result));
      }
    }
    return results;
  }

  private static String stages(String query) throws Exception {
    return stats(query).stages().stream()
        .map(s -> s.name() + " " + s.rowsIn() + "->" + s.rowsOut())
        .toList()
        .toString();
  }

  @Test
  void anAggregationAfterAHeadOverNoEventsAnswersZero() throws Exception {
    for (String query :
        List.of(
            "search index=ev earliest=+1d | head 5 | stats count",
            "search index=nosuch | head 5 | stats count",
            "search index=ev nosuchword | head 5 | stats count")) {
      assertThat(results(query, r -> r.path("count").asText()))
          .as(query + " " + stages(query))
          .containsExactly("0");
    }
  }

  @Test
  void aWrittenTableTakesEveryRowWithAHeadAfterIt() throws Exception {
    for (String index : List.of("ev", "bl")) {
      String write = "search index=" + index + " | head 100 | outputlookup w" + index + " | head 3";
      assertThat(results(write, r -> r.path("_raw").asText())).as(write).hasSize(3);
      String read = "| inputlookup w" + index + " | stats count";
      assertThat(results(read, r -> r.path("count").asText())).as(read).containsExactly("100");
    }
  }

  @Test
  void theStagesAfterAWrittenTableStopOnceTheirAnswerIsComplete() throws Exception {
    String query = "search index=ev | outputlookup all | eval k=1 | head 5";
    assertThat(results(query, r -> r.path("k").asText())).as(query).hasSize(5);
    String read = "| inputlookup all | stats count";
    assertThat(results(read, r -> r.path("count").asText())).containsExactly("3000");
    SearchStats stats = stats(query);
    assertThat(stats.stages())
        .as(stages(query))
        .filteredOn(s -> s.name().equals("eval"))
        .singleElement()
        .satisfies(s -> assertThat(s.rowsIn()).isLessThan(EVENTS));
  }
}
