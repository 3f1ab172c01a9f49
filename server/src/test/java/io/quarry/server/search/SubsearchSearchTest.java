package io.quarry.server.search;

import static io.quarry.server.TestHttp.basic;
import static io.quarry.server.TestHttp.encode;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestConfig;
import io.quarry.server.TestHttp;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Subsearches over a real server (HEC ingest, the Splunk export endpoint and jobs): they run as the
 * user (a role that cannot read an index cannot read it in a subsearch either), a job shows the
 * expanded search, cuts and failures say which subsearch.
 */
class SubsearchSearchTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;
  private static TestHttp http;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestConfig.yaml("indexes: [main, web]")
            .user("wendy", "webonly")
            .role("webonly", "{srchIndexesAllowed: [web], srchIndexesDefault: [web]}")
            .hecIndexes("main", "web")
            .start(directory);
    http = new TestHttp(server.url());
    TestServers.loadRaw(
        server,
        "main",
        "2026-01-01 00:00:01 user=ann action=bad\n2026-01-01 00:00:02 user=ben action=ok\n");
    TestServers.loadRaw(
        server,
        "web",
        "2026-01-01 00:00:03 user=ann page=a\n"
            + "2026-01-01 00:00:04 user=ben page=b\n"
            + "2026-01-01 00:00:05 user=ann page=c\n");
  }

  @Test
  void aSubsearchNarrowsTheOuterSearch() throws Exception {
    JsonNode last =
        export(
            "admin",
            "admin-pw",
            "index=web [search index=main action=bad | return user] | stats count by user");
    assertThat(last.path("result").path("user").asText()).isEqualTo("ann");
    assertThat(last.path("result").path("count").asText()).isEqualTo("2");
  }

  @Test
  void aSubsearchReadsOnlyWhatTheUserMayRead() throws Exception {
    // wendy may not read main: the subsearch finds nothing, so the outer search matches nothing
    JsonNode last =
        export(
            "wendy",
            "wendy-pw",
            "index=web [search index=main action=bad | return user] | stats count");
    assertThat(last.path("result").path("count").asText()).isEqualTo("0");
    assertThat(last.path("lines").toString())
        .contains("index 'main' is not searchable by user wendy");
    // and join's subsearch the same
    JsonNode joined =
        export(
            "wendy",
            "wendy-pw",
            "index=web | join user [search index=main | table user action] | stats count");
    assertThat(joined.path("result").path("count").asText()).isEqualTo("0");
  }

  @Test
  void aJobShowsTheSearchWithItsSubsearchesExpanded() throws Exception {
    HttpResponse<String> submitted =
        http.send(
            "POST",
            "/api/v1/jobs",
            basic("admin", "admin-pw"),
            "{\"query\": \"index=web [search index=main action=bad | return user] | stats count\","
                + " \"mode\": \"blocking\"}");
    assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(201);
    String id = JSON.readTree(submitted.body()).path("id").asText();
    JsonNode status =
        JSON.readTree(
            http.send("GET", "/api/v1/jobs/" + id, basic("admin", "admin-pw"), null).body());
    assertThat(status.toString())
        .contains("index=web user=\\\"ann\\\" | stats count")
        .contains("[search index=main action=bad | return user]");
  }

  @Test
  void aCutSubsearchSaysSo() throws Exception {
    JsonNode last =
        export(
            "admin",
            "admin-pw",
            "index=web | append maxout=1 [search index=main | table user] | stats count");
    assertThat(last.path("result").path("count").asText()).isEqualTo("4");
    assertThat(last.path("lines").toString())
        .contains("has more than 1 rows; only the first 1 are used (maxout)");
  }

  @Test
  void aFailingSubsearchFailsTheSearchNamingIt() throws Exception {
    HttpResponse<String> answer =
        http.send(
            "POST",
            "/services/search/jobs/export",
            basic("admin", "admin-pw"),
            "output_mode=json&search="
                + encode("index=web [search index=main | lookup nosuch user] | stats count"));
    assertThat(answer.statusCode()).isEqualTo(400);
    assertThat(answer.body())
        .contains("subsearch [ search index=main | lookup nosuch user ]")
        .contains("nosuch");
  }

  @Test
  void helpDescribesTheCommands() throws Exception {
    for (String command : new String[] {"format", "return", "append", "appendcols", "join"}) {
      JsonNode last = export("admin", "admin-pw", "| help " + command);
      assertThat(last.path("lines").toString()).as(command).contains(command);
    }
  }

  /** The last JSON line of an export: the final result row, with every line under "lines". */
  private static JsonNode export(String user, String password, String query) throws Exception {
    return http.exportLast(basic(user, password), query);
  }
}
