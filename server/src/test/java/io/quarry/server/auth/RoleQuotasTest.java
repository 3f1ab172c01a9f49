package io.quarry.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestConfig;
import io.quarry.server.TestHttp;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-role quotas and job ownership after Splunk's authorize.conf, over a real server: {@code
 * srchJobsQuota} (a user's searches at once, queued jobs included; past it 429 with Retry-After and
 * a JSON body, on every search path), {@code srchMaxTime} (a search of the role stops at it
 * whatever it asked for), the memory breaker over all running searches (503 {@code
 * SEARCH_MEMORY_BREAKER}, not an out-of-memory error, and the server searches on), and {@code
 * admin_all_objects} (who sees and controls other users' jobs).
 */
class RoleQuotasTest {
  /** Backtracks exponentially on the loaded events: a search that runs until stopped. */
  private static final String SLOW =
      "* | where match(_raw, \"^(?<x>(a|aa)+(\\\\1))$\") | stats count";

  private static final String CAROL = TestHttp.basic("carol", "carol-pw");
  private static final String OLGA = TestHttp.basic("olga", "olga-pw");
  private static final String TIMED = TestHttp.basic("tim", "tim-pw");
  private static final String ADMIN = TestHttp.basic("admin", "admin-pw");

  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;
  private static TestHttp http;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestConfig.yaml("search: {maxMemoryBytes: 67108864, maxTotalMemoryBytes: 1048576}")
            .user("carol", "single")
            .user("olga", "user", "ops")
            .user("tim", "timed")
            .role("single", "{srchJobsQuota: 1}")
            .role("ops", "{capabilities: [admin_all_objects]}")
            .role("timed", "{srchMaxTime: 1s, srchJobsQuota: 0}")
            .start(directory);
    http = new TestHttp(server.url());
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 4; i++) {
      lines.append("a".repeat(46)).append("b\n");
    }
    for (int i = 0; i < 20_000; i++) {
      lines.append("2026-01-07T10:00:00Z x=value").append(i).append(" y=g").append(i % 3);
      lines.append('\n');
    }
    HttpResponse<String> loaded =
        http.send("POST", "/services/collector/raw?sourcetype=app", "Splunk tok", lines.toString());
    assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
  }

  @Test
  void pastItsJobsQuotaAUserIsToldToRetryOnEverySearchPath() throws Exception {
    String running = submit(CAROL, SLOW, 120);
    try {
      HttpResponse<String> second =
          http.send("POST", "/api/v1/jobs", CAROL, "{\"query\":\"* | head 1\"}");
      assertThat(second.statusCode()).as(second.body()).isEqualTo(429);
      assertThat(second.headers().firstValue("Retry-After")).hasValue("5");
      JsonNode error = TestHttp.json(second.body()).get("error");
      assertThat(error.get("code").asText()).isEqualTo("SEARCH_QUOTA");
      assertThat(error.get("quota").asInt()).isEqualTo(1);
      assertThat(error.get("running").asInt()).isEqualTo(1);
      assertThat(error.get("message").asText()).contains("carol").contains("srchJobsQuota");
      // Splunk's job endpoint, the export endpoint, the streaming API and field summaries too
      for (String[] request :
          new String[][] {
            {"/services/search/jobs", "output_mode=json&search=" + TestHttp.encode("* | head 1")},
            {
              "/services/search/jobs/export",
              "output_mode=json&search=" + TestHttp.encode("* | head 1")
            },
            {"/api/v1/search", "{\"query\":\"* | head 1\"}"},
            {"/api/v1/fields", "{\"query\":\"*\"}"},
          }) {
        HttpResponse<String> refused = http.send("POST", request[0], CAROL, request[1]);
        assertThat(refused.statusCode()).as(request[0] + ": " + refused.body()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).as(request[0]).isPresent();
        assertThat(refused.body()).as(request[0]).contains("srchJobsQuota");
      }
      // a subsearch runs while its query is planned: it is refused before it runs, not after
      long started = System.nanoTime();
      HttpResponse<String> subsearch =
          http.send(
              "POST",
              "/services/search/jobs/export",
              CAROL,
              "output_mode=json&search="
                  + TestHttp.encode("search [search " + SLOW + " | return count]"));
      assertThat(subsearch.statusCode()).as(subsearch.body()).isEqualTo(429);
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
      HttpResponse<String> subsearchJob =
          http.send(
              "POST",
              "/api/v1/jobs",
              CAROL,
              "{\"query\":\"search [search * | head 1 | return _raw]\"}");
      assertThat(subsearchJob.statusCode()).as(subsearchJob.body()).isEqualTo(429);
      // other users are not affected
      assertThat(http.export(OLGA, "* | head 1")).hasSize(1);
    } finally {
      cancel(CAROL, running);
    }
    awaitFinished(CAROL, running);
    // the cancelled search frees its slot once its thread has stopped (within a second)
    long freed = System.nanoTime() + 30_000_000_000L;
    HttpResponse<String> again;
    while ((again = http.send("POST", "/api/v1/jobs", CAROL, "{\"query\":\"* | head 1\"}"))
            .statusCode()
        == 429) {
      assertThat(System.nanoTime()).as("carol's slot is freed").isLessThan(freed);
      Thread.sleep(50);
    }
    assertThat(again.statusCode()).as(again.body()).isEqualTo(201);
    // the refusals are audited
    http.awaitRows(
        ADMIN, "audited refusal", "index=_audit user=carol error=SEARCH_QUOTA status=429");
  }

  @Test
  void aRoleMaxTimeStopsItsUsersSearchesWhateverTheyAskFor() throws Exception {
    long started = System.nanoTime();
    HttpResponse<String> answer =
        http.send(
            "POST",
            "/services/search/jobs/export",
            TIMED,
            "output_mode=json&max_time=600&search=" + TestHttp.encode(SLOW));
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    assertThat(answer.body()).contains("search stopped after its time limit of 1 s");
    assertThat(took).isLessThan(Duration.ofSeconds(30));
    // a job too
    String job = submit(TIMED, SLOW, 600);
    JsonNode done = awaitFinished(TIMED, job);
    assertThat(done.get("messages").toString()).contains("time limit of 1 s");
  }

  @Test
  void theMemoryBreakerFailsTheSearchThatWouldPassItAndTheServerSearchesOn() throws Exception {
    HttpResponse<String> big =
        http.send(
            "POST",
            "/services/search/jobs/export",
            ADMIN,
            "output_mode=json&search=" + TestHttp.encode("x=value* | stats dc(x) by y"));
    assertThat(big.statusCode()).as(big.body()).isEqualTo(503);
    assertThat(big.headers().firstValue("Retry-After")).isPresent();
    assertThat(big.body())
        .contains("SEARCH_MEMORY_BREAKER")
        .contains("search.maxTotalMemoryBytes")
        .contains("stats");
    // what the failed search held was given back: small searches still run, repeatedly
    for (int i = 0; i < 5; i++) {
      assertThat(http.export(ADMIN, "x=value* | stats count by y")).hasSize(3);
    }
  }

  @Test
  void resultsAJobKeepsCountAgainstTheBreakerUntilItIsDeleted() throws Exception {
    // 20,000 events with their text: more than the 1 MiB all searches and kept results may hold
    String big = submit(ADMIN, "x=value* | table _raw x y", 60);
    JsonNode failed = awaitFinished(ADMIN, big);
    assertThat(failed.path("state").asText()).as(failed.toString()).isEqualTo("FAILED");
    assertThat(failed.toString()).contains("SEARCH_MEMORY_BREAKER");
    http.send("DELETE", "/api/v1/jobs/" + big, ADMIN, null);
    // a job that keeps little does not hold the breaker for others
    String small = submit(ADMIN, "x=value* | stats count by y", 60);
    assertThat(awaitFinished(ADMIN, small).path("state").asText()).isEqualTo("DONE");
    for (int i = 0; i < 5; i++) {
      assertThat(http.export(ADMIN, "x=value* | stats count by y")).hasSize(3);
    }
    http.send("DELETE", "/api/v1/jobs/" + small, ADMIN, null);
  }

  @Test
  void adminAllObjectsSeesAndControlsOtherUsersJobsOthersOnlyTheirOwn() throws Exception {
    String carols = submit(CAROL, "* | head 1", 60);
    awaitFinished(CAROL, carols);
    String olgas = submit(OLGA, "* | head 2", 60);
    awaitFinished(OLGA, olgas);
    // olga (admin_all_objects) sees carol's job, its results and lists it
    assertThat(http.send("GET", "/api/v1/jobs/" + carols, OLGA, null).statusCode()).isEqualTo(200);
    assertThat(http.send("GET", "/api/v1/jobs/" + carols + "/results", OLGA, null).statusCode())
        .isEqualTo(200);
    assertThat(http.send("GET", "/api/v1/jobs", OLGA, null).body()).contains(carols);
    assertThat(
            http.send("GET", "/services/search/jobs/" + carols + "?output_mode=json", OLGA, null)
                .statusCode())
        .isEqualTo(200);
    // carol does not see olga's: the same 404 as for no job, on every job route
    for (String[] route :
        new String[][] {
          {"GET", "/api/v1/jobs/" + olgas},
          {"GET", "/api/v1/jobs/" + olgas + "/results"},
          {"GET", "/api/v1/jobs/" + olgas + "/inspect"},
          {"POST", "/api/v1/jobs/" + olgas + "/cancel"},
          {"POST", "/api/v1/jobs/" + olgas + "/finalize"},
          {"POST", "/api/v1/jobs/" + olgas + "/touch"},
          {"DELETE", "/api/v1/jobs/" + olgas},
          {"GET", "/services/search/jobs/" + olgas + "?output_mode=json"},
          {"GET", "/services/search/jobs/" + olgas + "/results?output_mode=json"},
          {"POST", "/services/search/jobs/" + olgas + "/control?output_mode=json"},
          {"DELETE", "/services/search/jobs/" + olgas + "?output_mode=json"},
        }) {
      HttpResponse<String> answer =
          http.send(route[0], route[1], CAROL, route[0].equals("POST") ? "action=cancel" : null);
      assertThat(answer.statusCode()).as(route[0] + " " + route[1]).isEqualTo(404);
    }
    assertThat(http.send("GET", "/api/v1/jobs", CAROL, null).body()).doesNotContain(olgas);
    // and olga may delete carol's
    assertThat(http.send("DELETE", "/api/v1/jobs/" + carols, OLGA, null).statusCode())
        .isEqualTo(200);
    assertThat(http.send("GET", "/api/v1/jobs/" + carols, CAROL, null).statusCode()).isEqualTo(404);
  }

  private static String submit(String user, String query, int timeout) throws Exception {
    HttpResponse<String> created =
        http.send(
            "POST",
            "/api/v1/jobs",
            user,
            "{\"query\":\"" + escape(query) + "\"," + "\"timeout\":" + timeout + "}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    return TestHttp.json(created.body()).get("id").asText();
  }

  private static String escape(String text) {
    return text.replace("\\", "\\\\").replace("\"", "\\\"");
  }

  private static void cancel(String user, String id) throws Exception {
    http.send("POST", "/api/v1/jobs/" + id + "/cancel", user, null);
  }

  private static JsonNode awaitFinished(String user, String id) throws Exception {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (true) {
      JsonNode status = TestHttp.json(http.send("GET", "/api/v1/jobs/" + id, user, null).body());
      String state = status.path("state").asText();
      if (!state.equals("RUNNING") && !state.equals("QUEUED")) {
        return status;
      }
      assertThat(System.nanoTime()).as("job " + id + " finishes").isLessThan(deadline);
      Thread.sleep(50);
    }
  }
}
