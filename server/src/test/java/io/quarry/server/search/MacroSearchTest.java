package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.MacroSettings;
import io.quarry.server.config.Search;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Search macros from the configuration expand in searches; an unknown one is a 400 naming it. */
class MacroSearchTest {
  private static final String PASSWORD = "macro-pw";

  @TempDir Path dataDirectory;
  private QuarryServer server;

  private static Search searchSettings() {
    return new Search(
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        Map.of(
            "failures",
            new MacroSettings("status=500", null),
            "count_by(1)",
            new MacroSettings("stats count by $field$", List.of("field"))),
        null,
        null,
        null,
        null);
  }

  @BeforeEach
  void start() throws Exception {
    server =
        TestServers.start(
            dataDirectory, PASSWORD, settings -> settings.put("search", searchSettings()));
    TestServers.loadRaw(
        server,
        "2026-01-01 00:00:01 status=500 node=a\n"
            + "2026-01-01 00:00:02 status=200 node=a\n"
            + "2026-01-01 00:00:03 status=500 node=b\n"
            + "2026-01-01 00:00:04 status=500 node=b\n");
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  @Test
  void configuredMacrosExpandWithTheirArguments() throws Exception {
    HttpResponse<String> response =
        TestServers.export(server, PASSWORD, "`failures` | `count_by(node)`");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(response.body())
        .contains("\"result\":{\"node\":\"a\",\"count\":\"1\"}")
        .contains("\"result\":{\"node\":\"b\",\"count\":\"2\"}");
  }

  @Test
  void aJobShowsItsSearchWithMacrosExpanded() throws Exception {
    HttpResponse<String> submitted =
        request("POST", "/api/v1/jobs", "{\"query\": \"`failures` | `count_by(node)`\"}");
    assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(201);
    String id = submitted.body().replaceAll(".*\"id\"\\s*:\\s*\"([^\"]+)\".*", "$1");
    HttpResponse<String> status = request("GET", "/api/v1/jobs/" + id, null);
    assertThat(status.body())
        .contains("\"query\":\"`failures` | `count_by(node)`\"")
        .contains("\"expandedQuery\":\"status=500 | stats count by node\"");
  }

  @Test
  void anUnknownMacroIsA400NotASearchForItsName() throws Exception {
    HttpResponse<String> response = TestServers.export(server, PASSWORD, "`nosuch` | stats count");
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).contains("Unknown search macro 'nosuch'");
  }

  @Test
  void macrosDefinedThroughTheApiExpandInLaterSearchesAndSurviveARestart() throws Exception {
    HttpResponse<String> defined =
        request(
            "PUT",
            "/api/v1/macros/node_is(1)",
            "{\"definition\": \"node=$n$\", \"args\": [\"n\"]}");
    assertThat(defined.statusCode()).as(defined.body()).isEqualTo(200);
    HttpResponse<String> searched =
        TestServers.export(server, PASSWORD, "`node_is(b)` `failures` | stats count");
    assertThat(searched.body()).contains("\"count\":\"2\"");

    HttpResponse<String> listed = request("GET", "/api/v1/macros", null);
    assertThat(listed.body())
        .contains("\"node_is(1)\":{\"definition\":\"node=$n$\",\"args\":[\"n\"],\"from\":\"api\"}")
        .contains("\"failures\":{\"definition\":\"status=500\",\"args\":[],\"from\":\"config\"}");

    HttpResponse<String> badArity =
        request("PUT", "/api/v1/macros/two(2)", "{\"definition\": \"x=$a$\", \"args\": [\"a\"]}");
    assertThat(badArity.statusCode()).isEqualTo(400);
    assertThat(badArity.body()).contains("takes 2 arguments but names 1");
    HttpResponse<String> configured =
        request("PUT", "/api/v1/macros/failures", "{\"definition\": \"x\"}");
    assertThat(configured.statusCode()).isEqualTo(400);
    assertThat(configured.body()).contains("defined in the configuration");

    server.close();
    server =
        TestServers.start(
            dataDirectory, PASSWORD, settings -> settings.put("search", searchSettings()));
    assertThat(TestServers.export(server, PASSWORD, "`node_is(a)` | stats count").body())
        .as("kept in macros.json")
        .contains("\"count\":\"2\"");
    assertThat(request("DELETE", "/api/v1/macros/node_is(1)", null).statusCode()).isEqualTo(200);
    assertThat(TestServers.export(server, PASSWORD, "`node_is(a)` | stats count").statusCode())
        .isEqualTo(400);
  }

  private HttpResponse<String> request(String method, String path, String body) throws Exception {
    return java.net.http.HttpClient.newHttpClient()
        .send(
            java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create(
                        server.url() + path.replace("(", "%28").replace(")", "%29")))
                .header("Authorization", TestServers.basic(PASSWORD))
                .header("Content-Type", "application/json")
                .method(
                    method,
                    body == null
                        ? java.net.http.HttpRequest.BodyPublishers.noBody()
                        : java.net.http.HttpRequest.BodyPublishers.ofString(body))
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
  }
}
