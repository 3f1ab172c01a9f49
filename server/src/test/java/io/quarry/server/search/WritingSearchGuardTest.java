package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestHttp;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Searches run on the user's behalf over a real server: the field summary ({@code /api/v1/fields})
 * and a read-only job (the search page's timeline) refuse a query that writes with 400 {@code
 * SEARCH_WRITES} naming the command, and write nothing; a {@code map} whose search text writes
 * nothing is read-only (it runs there and in a running job's preview, and its runs may not write
 * even when a value adds {@code | collect}); what {@code append}'s subsearches write is counted in
 * the job's statistics and its audit event. Review (session 35): a subsearch's result spliced into
 * the query as text (a {@code search} field) adds no writing command behind the read-only checks; a
 * search refused by a check made after its subsearches ran (a missing lookup table) has not written
 * through a subsearch's {@code collect}; the audit names the indexes {@code map}'s searches wrote.
 */
class WritingSearchGuardTest {
  private static final String ADMIN = TestHttp.basic("admin", "admin-pw");
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;
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

  @Test
  void theFieldSummaryRefusesAQueryThatWrites() throws Exception {
    HttpResponse<String> refused =
        post("/api/v1/fields", "index=main | collect index=summary marker=run=fields");
    assertRefused(refused, "collect");
    assertRefused(
        post(
            "/api/v1/fields",
            "index=main | stats count by status"
                + " | map search=\"| makeresults | eval s=$status$"
                + " | collect index=summary marker=run=fieldsmap\""),
        "map");
    assertRefused(
        post(
            "/api/v1/fields",
            "| makeresults | append [| makeresults | collect index=summary marker=run=fieldsub]"),
        "collect");
    assertThat(count("index=summary run=fields*")).isZero();

    HttpResponse<String> readOnly = post("/api/v1/fields", "index=main | table status, n");
    assertThat(readOnly.statusCode()).as(readOnly.body()).isEqualTo(200);
  }

  @Test
  void aReadOnlyJobRefusesAQueryThatWrites() throws Exception {
    String query = "index=main | collect index=summary marker=run=timeline | timechart count";
    assertRefused(
        http.send(
            "POST",
            "/api/v1/jobs",
            ADMIN,
            "{\"query\": " + JSON.writeValueAsString(query) + ", \"readOnly\": true}"),
        "collect");
    HttpResponse<String> notBoolean =
        http.send("POST", "/api/v1/jobs", ADMIN, "{\"query\": \"index=main\", \"readOnly\": 1}");
    assertThat(notBoolean.statusCode()).isEqualTo(400);
    assertThat(TestHttp.json(notBoolean.body()).at("/error/code").asText())
        .isEqualTo("INVALID_PARAMETER");
    assertThat(count("index=summary run=timeline")).isZero();
  }

  @Test
  void aMapWhoseSearchWritesNothingIsReadOnly() throws Exception {
    String map =
        "index=main | stats count by status"
            + " | map search=\"| makeresults | eval s=\\\"$status$\\\", run=$_serial_id$\"";
    assertThat(writes(map)).isFalse();
    assertThat(writes("| makeresults | map search=\"| makeresults | collect index=summary\""))
        .isTrue();
    assertThat(writes("| makeresults | eval c=\"collect\" | map search=\"| makeresults | $c$\""))
        .as("a command filled in may write")
        .isTrue();
    HttpResponse<String> summary = post("/api/v1/fields", map);
    assertThat(summary.statusCode()).as(summary.body()).isEqualTo(200);
    assertThat(summary.body()).contains("\"name\":\"s\"");
  }

  @Test
  void aRunningJobsPreviewRunsAReadOnlyMapButNotOneThatMayWrite() {
    assertThat(
            AggregationPreview.previews(
                afterStats(
                    "index=main | stats count by status"
                        + " | map search=\"| makeresults | eval s=\\\"$status$\\\"\"")))
        .isTrue();
    assertThat(
            AggregationPreview.previews(
                afterStats(
                    "index=main | stats count by status"
                        + " | map search=\"| makeresults | eval s=$status$"
                        + " | collect index=summary marker=run=previewed\"")))
        .isFalse();
  }

  @Test
  void aValueFilledIntoAReadOnlyMapCannotAddACommandThatWrites() throws Exception {
    String query =
        "| makeresults | eval q=\"| makeresults | collect index=summary marker=run=injected\""
            + " | map search=\"$q$\"";
    assertThat(writes(query)).as("its search text, $q$, is a search for a word").isFalse();
    HttpResponse<String> refused = post("/api/v1/search", query);
    assertRefused(refused, "collect");
    assertThat(count("index=summary run=injected")).isZero();
  }

  @Test
  void whatAppendsSubsearchWritesIsCountedAndAudited() throws Exception {
    assertThat(
            collectedBy(
                "| makeresults | append [| makeresults count=3 | collect index=summary"
                    + " marker=run=appended] | stats count"))
        .isEqualTo(3);
    assertThat(count("index=summary run=appended")).isEqualTo(3);
    CollectAudit.assertCollected(http, ADMIN, "appended", "3", "summary");
  }

  @Test
  void whatJoinsAndAppendcolsSubsearchesWriteIsCounted() throws Exception {
    assertThat(
            collectedBy(
                "| makeresults | eval k=1 | join k [| makeresults count=2 | eval k=1"
                    + " | collect index=summary marker=run=joined]"
                    + " | appendcols [| makeresults | collect index=summary marker=run=joined]"))
        .isEqualTo(3);
    assertThat(count("index=summary run=joined")).isEqualTo(3);
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

  @Test
  void theIndexesAMapsSearchesWroteAreAudited() throws Exception {
    http.export(
        ADMIN,
        "| makeresults count=2 | map search=\"| makeresults | eval x=$_serial_id$"
            + " | collect index=summary marker=run=mapaudit\"");
    CollectAudit.assertCollected(http, ADMIN, "mapaudit", "2", "summary");
  }

  @Test
  void aSearchsTextForgesNoAuditField() throws Exception {
    // the audit event holds the search's text as search='…'; its sourcetype reads no pair from it
    http.export(
        ADMIN,
        "| makeresults | search collected_count=777 collect_indexes=forged"
            + " user=bob info=granted action=logout run=forge");
    var audited =
        http.exportEventually(
            ADMIN,
            // the polling searches are audited too, and their texts hold "run=forge"
            "index=_audit action=search info=completed \"run=forge\""
                + " | where like(search, \"| makeresults | search %\")"
                + " | eval users=mvcount(user), infos=mvcount(info), actions=mvcount(action)"
                + " | table search, timestamp, user, info, action, users, infos, actions");
    assertThat(audited).as(audited.toString()).hasSize(1);
    JsonNode event = audited.get(0);
    assertThat(event.path("search").asText()).contains("collected_count=777");
    assertThat(event.path("timestamp").asText()).as(event.toString()).matches("\\d{4}-.*Z");
    assertThat(event.path("user").asText()).isEqualTo("admin");
    assertThat(event.path("info").asText()).isEqualTo("completed");
    assertThat(event.path("action").asText()).isEqualTo("search");
    assertThat(
            event.path("users").asText()
                + event.path("infos").asText()
                + event.path("actions").asText())
        .as(event.toString())
        .isEqualTo("111");
    var forged =
        http.export(
            ADMIN,
            "index=_audit action=search \"run=forge\""
                + " | where isnotnull(collected_count) OR isnotnull(collect_indexes)"
                + " OR user=\"bob\" OR info=\"granted\" OR action=\"logout\""
                + " | table collected_count, collect_indexes");
    assertThat(forged).as(forged.toString()).isEmpty();
    var searched = http.export(ADMIN, "index=_audit collected_count=777 OR user=bob | stats count");
    assertThat(searched.get(0).path("count").asText()).isEqualTo("0");
    var bySearch = http.export(ADMIN, "index=_audit search=* \"run=forge\" | stats count");
    assertThat(bySearch.get(0).path("count").asLong()).isPositive();
  }

  @Test
  void aReadOnlySearchIsCheckedAgainAsItIsPlanned() throws Exception {
    // the route checked the query while the macro read; it changed before the plan
    HttpResponse<String> defined =
        http.send("PUT", "/api/v1/macros/late_writer", ADMIN, "{\"definition\": \"eval a=1\"}");
    assertThat(defined.statusCode()).as(defined.body()).isBetween(200, 201);
    String query = "| makeresults | `late_writer`";
    server.search().requireReadOnly(query, "a test");
    defined =
        http.send(
            "PUT",
            "/api/v1/macros/late_writer",
            ADMIN,
            "{\"definition\": \"collect index=summary marker=run=latewriter\"}");
    assertThat(defined.statusCode()).as(defined.body()).isBetween(200, 201);
    var access = io.quarry.server.auth.Access.admin();
    assertThatThrownBy(() -> server.search().plan(query, null, null, access, false, true))
        .isInstanceOf(io.quarry.server.http.ApiException.class)
        .hasMessageContaining("'collect'");
    // a subsearch's own text too, checked as it runs
    assertThatThrownBy(
            () ->
                server
                    .search()
                    .plan(
                        "| makeresults | append [| makeresults | `late_writer`]",
                        null,
                        null,
                        access,
                        false,
                        true))
        .isInstanceOf(io.quarry.server.http.ApiException.class)
        .hasMessageContaining("'collect'");
    assertThat(count("index=summary run=latewriter")).isZero();
    // not read-only: the same query plans
    assertThat(server.search().plan(query, null, null, access, false, false)).isNotNull();
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
    long written = count("index=summary run=orphan");
    assertThat(written).as("a refused search writes nothing").isZero();
  }

  /** The events a blocking job of {@code query} says it collected. */
  private static long collectedBy(String query) throws Exception {
    HttpResponse<String> created =
        http.send(
            "POST",
            "/api/v1/jobs",
            ADMIN,
            "{\"query\": " + JSON.writeValueAsString(query) + ", \"mode\": \"blocking\"}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    JsonNode status = TestHttp.json(created.body());
    assertThat(status.path("state").asText()).as(status.toString()).isEqualTo("DONE");
    return status.path("eventsCollected").asLong();
  }

  private static void assertRefused(HttpResponse<String> response, String command)
      throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
    JsonNode error = TestHttp.json(response.body()).path("error");
    assertThat(error.path("code").asText()).as(response.body()).isEqualTo("SEARCH_WRITES");
    assertThat(error.path("command").asText()).as(response.body()).isEqualTo(command);
  }

  private static HttpResponse<String> post(String path, String query) throws Exception {
    return http.send("POST", path, ADMIN, "{\"query\": " + JSON.writeValueAsString(query) + "}");
  }

  /** The planned pipeline's commands after its first, the stats. */
  private static List<io.quarry.ql.ast.Command> afterStats(String query) {
    List<io.quarry.ql.ast.Command> pipeline = server.search().plan(query, null, null).pipeline();
    assertThat(pipeline.get(0)).isInstanceOf(io.quarry.ql.ast.StatsCommand.class);
    return pipeline.subList(1, pipeline.size());
  }

  private static boolean writes(String query) throws Exception {
    HttpResponse<String> answer = post("/api/v1/search/writes", query);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return TestHttp.json(answer.body()).path("writes").asBoolean();
  }

  private static long count(String query) throws Exception {
    return http.export(ADMIN, query + " | stats count").get(0).path("count").asLong();
  }
}
