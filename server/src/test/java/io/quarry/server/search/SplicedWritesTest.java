package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestHttp;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review (session 35): a subsearch in search position whose one row is a {@code search} field is
 * spliced into the query as text and the query parsed again, so its value can add commands ({@code
 * | collect …}) that the read-only check — made on the query before any subsearch ran — never saw.
 * A search run on the user's behalf (the field summary, a read-only map's runs) must still write
 * nothing.
 */
class SplicedWritesTest {
  private static final String ADMIN = TestHttp.basic("admin", "admin-pw");
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path directory;
  private static QuarryServer server;
  private static TestHttp http;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestServers.start(
            directory, "admin-pw", settings -> settings.put("indexes", List.of("main", "summary")));
    http = new TestHttp(server.url());
    HttpResponse<String> loaded =
        TestServers.postRaw(server, TestServers.TOKEN, "app", "status=200 n=1\nstatus=500 n=2\n");
    assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aReadOnlyJobWritesNothingThroughASplicedSubsearchResult() throws Exception {
    String query =
        "index=main [| makeresults"
            + " | eval search=\"status=200 | collect index=summary marker=run=spliced\"]"
            + " | timechart count";
    HttpResponse<String> answer =
        http.send(
            "POST",
            "/api/v1/jobs",
            ADMIN,
            "{\"query\": "
                + JSON.writeValueAsString(query)
                + ", \"readOnly\": true, \"mode\": \"blocking\"}");
    assertThat(count("index=summary run=spliced")).as(answer.body()).isZero();
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
  }

  @Test
  void aReadOnlyMapsRunWritesNothingThroughASplicedSubsearchResult() throws Exception {
    String query =
        "| makeresults | map search=\"search index=main [| makeresults | eval search="
            + "\\\"status=500 | collect index=summary marker=run=mapspliced\\\"]\"";
    HttpResponse<String> answer = post("/api/v1/fields", query);
    assertThat(count("index=summary run=mapspliced")).as(answer.body()).isZero();
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
  }

  private static HttpResponse<String> post(String path, String query) throws Exception {
    return http.send("POST", path, ADMIN, "{\"query\": " + JSON.writeValueAsString(query) + "}");
  }

  private static long count(String query) throws Exception {
    JsonNode row = http.export(ADMIN, query + " | stats count").get(0);
    return row.path("count").asLong();
  }
}
