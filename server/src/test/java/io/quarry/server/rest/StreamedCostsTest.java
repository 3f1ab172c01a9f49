package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The search's costs at the end of the streamed line formats are asked for, never there by default
 * (session 44): NDJSON ({@code POST /api/v1/search}) is rows alone unless the body says {@code
 * "costs": true}, and Splunk's export ({@code /services/search/jobs/export}) is Splunk's lines
 * alone unless Quarry's own {@code quarry_costs=true} — so a reader taking every NDJSON line for a
 * row, or every export line for Splunk's, sees what it saw before. Through a real server over HTTP.
 */
class StreamedCostsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "pw";
  private static final String ROWS = "| makeresults count=3 | streamstats count AS n | table n";

  @TempDir static Path dataDirectory;
  private static QuarryServer server;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(dataDirectory, PASSWORD);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @Test
  void ndjsonIsRowsAloneByDefault() throws Exception {
    HttpResponse<String> answer = search("application/x-ndjson", "{\"query\": \"" + ROWS + "\"}");
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    assertThat(answer.body()).isEqualTo("{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n");
    // "costs": false is the default said aloud
    assertThat(
            search("application/x-ndjson", "{\"query\": \"" + ROWS + "\", \"costs\": false}")
                .body())
        .isEqualTo(answer.body());
  }

  @Test
  void ndjsonEndsWithTheCostsWhenAsked() throws Exception {
    HttpResponse<String> answer =
        search("application/x-ndjson", "{\"query\": \"" + ROWS + "\", \"costs\": true}");
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    List<String> lines = answer.body().lines().toList();
    assertThat(lines).hasSize(4);
    assertThat(lines.subList(0, 3)).containsExactly("{\"n\":1}", "{\"n\":2}", "{\"n\":3}");
    JsonNode last = JSON.readTree(lines.getLast());
    assertThat(last.path("messages").isArray()).as(lines.getLast()).isTrue();
    JsonNode costs = last.path("costs");
    assertThat(costs.path("rows").asLong()).as(lines.getLast()).isEqualTo(3);
    assertThat(costs.path("cpuMs").isNumber()).as(lines.getLast()).isTrue();
    assertThat(costs.path("elapsedMs").isIntegralNumber()).as(lines.getLast()).isTrue();
    assertThat(costs.has("eventsRead")).as(lines.getLast()).isTrue();
    assertThat(costs.has("eventsMatched")).as(lines.getLast()).isTrue();
  }

  @Test
  void jsonKeepsItsCostsEitherWay() throws Exception {
    for (String option : List.of("", ", \"costs\": false", ", \"costs\": true")) {
      HttpResponse<String> answer =
          search("application/json", "{\"query\": \"" + ROWS + "\"" + option + "}");
      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
      assertThat(JSON.readTree(answer.body()).at("/costs/rows").asLong()).as(option).isEqualTo(3);
    }
  }

  @Test
  void aBadCostsOptionIsA400() throws Exception {
    for (String value : List.of("\"true\"", "1", "\"yes\"", "{}")) {
      HttpResponse<String> answer =
          search("application/x-ndjson", "{\"query\": \"" + ROWS + "\", \"costs\": " + value + "}");
      assertThat(answer.statusCode()).as(value).isEqualTo(400);
      JsonNode error = JSON.readTree(answer.body()).path("error");
      assertThat(error.path("code").asText()).as(answer.body()).isEqualTo("INVALID_PARAMETER");
      assertThat(error.path("message").asText()).as(answer.body()).contains("'costs'");
    }
    // CSV and Arrow have no room for them: asking there is refused, not ignored
    for (String accept : List.of("text/csv", "application/vnd.apache.arrow.stream")) {
      HttpResponse<String> answer =
          search(accept, "{\"query\": \"" + ROWS + "\", \"costs\": true}");
      assertThat(answer.statusCode()).as(accept).isEqualTo(400);
      assertThat(JSON.readTree(answer.body()).at("/error/code").asText())
          .as(answer.body())
          .isEqualTo("INVALID_PARAMETER");
      assertThat(search(accept, "{\"query\": \"" + ROWS + "\", \"costs\": false}").statusCode())
          .as(accept)
          .isEqualTo(200);
    }
  }

  @Test
  void anExportIsSplunksLinesAloneByDefault() throws Exception {
    HttpResponse<String> answer = TestServers.export(server, PASSWORD, ROWS);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    assertThat(answer.body())
        .isEqualTo(
            "{\"preview\":false,\"offset\":0,\"result\":{\"n\":\"1\"}}\n"
                + "{\"preview\":false,\"offset\":1,\"result\":{\"n\":\"2\"}}\n"
                + "{\"preview\":false,\"offset\":2,\"lastrow\":true,\"result\":{\"n\":\"3\"}}\n");
    assertThat(export(ROWS, "false").body()).isEqualTo(answer.body());
    assertThat(export(ROWS, "0").body()).isEqualTo(answer.body());
    // a search with warnings ends with Splunk's messages line, and no costs in it
    List<String> warned =
        TestServers.export(server, PASSWORD, "search index=nosuch | stats count")
            .body()
            .lines()
            .toList();
    JsonNode messages = JSON.readTree(warned.getLast());
    assertThat(messages.path("messages").isArray()).as(warned.getLast()).isTrue();
    assertThat(messages.has("costs")).as(warned.getLast()).isFalse();
  }

  @Test
  void anExportEndsWithTheCostsWhenAsked() throws Exception {
    for (String value : List.of("true", "1", " TRUE ")) {
      HttpResponse<String> answer = export(ROWS, value);
      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
      List<String> lines = answer.body().lines().toList();
      assertThat(lines).as(value).hasSize(4);
      assertThat(JSON.readTree(lines.get(2)).path("lastrow").asBoolean()).isTrue();
      JsonNode last = JSON.readTree(lines.getLast());
      assertThat(last.has("result")).as(lines.getLast()).isFalse(); // Splunk's readers pass it
      assertThat(last.path("preview").isBoolean()).isTrue();
      assertThat(last.path("preview").asBoolean()).isFalse();
      assertThat(last.at("/costs/rows").asLong()).as(lines.getLast()).isEqualTo(3);
      assertThat(last.at("/costs/cpuMs").isNumber()).as(lines.getLast()).isTrue();
    }
    // with warnings: one line, the messages and the costs
    List<String> warned =
        export("search index=nosuch | stats count", "true").body().lines().toList();
    JsonNode last = JSON.readTree(warned.getLast());
    assertThat(last.path("messages").isArray()).as(warned.getLast()).isTrue();
    assertThat(last.at("/costs/rows").asLong()).as(warned.getLast()).isEqualTo(1);
  }

  @Test
  void aBadQuarryCostsIsA400() throws Exception {
    HttpResponse<String> answer = export(ROWS, "maybe");
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
    assertThat(answer.body()).contains("quarry_costs");
  }

  private static HttpResponse<String> search(String accept, String body) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/search"))
            .header("Authorization", TestServers.basic(PASSWORD))
            .header("Accept", accept)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** An export with {@code quarry_costs} in the query string, the search in the form body. */
  private static HttpResponse<String> export(String query, String quarryCosts) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(
                URI.create(
                    server.url()
                        + "/services/search/jobs/export?quarry_costs="
                        + URLEncoder.encode(quarryCosts, StandardCharsets.UTF_8)))
            .header("Authorization", TestServers.basic(PASSWORD))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "output_mode=json&search=" + URLEncoder.encode(query, StandardCharsets.UTF_8)))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
