package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

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
 * Review (session 35): docs/commands/collect.md says the rights and index of every {@code collect}
 * are checked before any subsearch runs, "a refused search writes nothing"; a search refused by a
 * check made after its subsearches ran (a lookup table that does not exist) must not have written
 * through a subsearch's {@code collect} either. The audit event of a search names the indexes its
 * {@code map}'s searches wrote, as it names its subsearches'.
 */
class RefusedSearchWritesNothingTest {
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
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void theIndexesAMapsSearchesWroteAreAudited() throws Exception {
    http.export(
        ADMIN,
        "| makeresults count=2 | map search=\"| makeresults | eval x=$_serial_id$"
            + " | collect index=summary marker=run=mapaudit\"");
    var audited =
        http.exportEventually( // the audit trail writes its events from a queue
            ADMIN,
            "index=_audit action=search info=completed \"run=mapaudit\" collected_count=*"
                + " | table collected_count, collect_indexes");
    assertThat(audited).as(audited.toString()).hasSize(1);
    assertThat(audited.get(0).path("collected_count").asText()).isEqualTo("2");
    assertThat(audited.get(0).path("collect_indexes").asText()).isEqualTo("summary");
  }

  @Test
  void aSearchRefusedForAMissingLookupWroteNothingThroughItsSubsearch() throws Exception {
    String query =
        "| makeresults | append [| makeresults | collect index=summary marker=run=orphan]"
            + " | lookup no_such_table k";
    HttpResponse<String> answer =
        http.send(
            "POST",
            "/api/v1/jobs",
            ADMIN,
            "{\"query\": " + JSON.writeValueAsString(query) + ", \"mode\": \"blocking\"}");
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
    assertThat(answer.body()).contains("no_such_table");
    long written =
        http.export(ADMIN, "index=summary run=orphan | stats count").get(0).path("count").asLong();
    assertThat(written).as("a refused search writes nothing").isZero();
  }
}
