package io.quarry.server.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestConfig;
import io.quarry.server.TestHttp;
import io.quarry.server.config.Search;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Job TTLs over a real server: a finished job and its results are reaped after its TTL without
 * anyone looking, what it kept leaves the memory breaker then, and a TTL a client asks for (native
 * {@code ttl}, Splunk's {@code timeout} and {@code setttl}) is clamped to {@code
 * search.maxJobTtlSeconds}.
 */
class JobTtlTest {
  private static final String ADMIN = TestHttp.basic("admin", "admin-pw");
  private static final String BOB = TestHttp.basic("bob", "bob-pw");
  private static final int EVENTS = 6000;

  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;
  private static TestHttp http;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestConfig.yaml(
                "search: {jobTtlSeconds: 1, maxJobTtlSeconds: 3, maxTotalMemoryBytes: 3145728}")
            .user("bob")
            .start(directory);
    http = new TestHttp(server.url());
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < EVENTS; i++) {
      lines.append("2026-01-07T10:00:00Z x=value").append(i).append(" pad=");
      lines.append("p".repeat(400)).append('\n');
    }
    HttpResponse<String> loaded =
        http.send("POST", "/services/collector/raw?sourcetype=app", "Splunk tok", lines.toString());
    assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
  }

  @Test
  void aFinishedJobIsReapedAfterItsTtlWithoutAnyoneLooking() throws Exception {
    JsonNode job = create(BOB, "x=value* | head 3", 1);
    assertThat(job.path("state").asText()).isEqualTo("DONE");
    assertThat(job.path("ttlSeconds").asLong()).isEqualTo(1);
    String id = job.path("id").asText();
    assertThat(http.send("GET", "/api/v1/jobs/" + id + "/results", BOB, null).statusCode())
        .isEqualTo(200);
    // the reaper removes it (the metrics count the jobs kept, and reading them looks at no job)
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!metrics().contains("quarry_search_jobs{state=\"DONE\"} 0.0")) {
      assertThat(System.nanoTime()).as("the job is reaped").isLessThan(deadline);
      Thread.sleep(100);
    }
    HttpResponse<String> gone = http.send("GET", "/api/v1/jobs/" + id + "/results", BOB, null);
    assertThat(gone.statusCode()).as(gone.body()).isEqualTo(404);
    assertThat(gone.body()).contains("JOB_NOT_FOUND");
    assertThat(http.send("GET", "/services/search/jobs/" + id, BOB, null).statusCode())
        .isEqualTo(404);
  }

  @Test
  void aTtlAboveTheMaximumIsClampedOnEveryPath() throws Exception {
    JsonNode job = create(BOB, "x=value* | head 1", 3600);
    assertThat(job.path("ttlSeconds").asLong()).isEqualTo(3);
    String id = job.path("id").asText();
    HttpResponse<String> touched =
        http.send("POST", "/api/v1/jobs/" + id + "/touch?ttl=86400", BOB, null);
    assertThat(TestHttp.json(touched.body()).path("ttlSeconds").asLong()).isEqualTo(3);
    // Splunk's timeout at creation, then setttl
    HttpResponse<String> created =
        http.send(
            "POST",
            "/services/search/jobs",
            BOB,
            "output_mode=json&exec_mode=blocking&timeout=86400&search="
                + TestHttp.encode("x=value* | head 1"));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String sid = TestHttp.json(created.body()).path("sid").asText();
    assertThat(splunkTtl(sid)).isEqualTo(3);
    HttpResponse<String> set =
        http.send(
            "POST",
            "/services/search/jobs/" + sid + "/control",
            BOB,
            "output_mode=json&action=setttl&ttl=100000");
    assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
    assertThat(set.body()).contains("3 s");
    assertThat(splunkTtl(sid)).isEqualTo(3);
    HttpResponse<String> lower =
        http.send(
            "POST",
            "/services/search/jobs/" + sid + "/control",
            BOB,
            "output_mode=json&action=setttl&ttl=2");
    assertThat(lower.statusCode()).as(lower.body()).isEqualTo(200);
    assertThat(splunkTtl(sid)).isEqualTo(2);
    // kept alive by looks no longer than the maximum after the last one: gone soon after
    long deadline = System.nanoTime() + 15_000_000_000L;
    while (http.send("GET", "/api/v1/jobs/" + id, ADMIN, null).statusCode() != 404) {
      assertThat(System.nanoTime()).as("the clamped job expires").isLessThan(deadline);
      Thread.sleep(3_500);
    }
  }

  @Test
  void whatAnExpiredJobKeptLeavesTheMemoryBreaker() throws Exception {
    // one job's 5,000 rows fit under the 3 MiB breaker, two do not
    String query = "x=value* | head 5000 | table _raw x";
    JsonNode kept = create(ADMIN, query, 2);
    assertThat(kept.path("state").asText()).as(kept.toString()).isEqualTo("DONE");
    JsonNode refused = create(ADMIN, query, 1);
    assertThat(refused.path("state").asText()).as(refused.toString()).isEqualTo("FAILED");
    assertThat(refused.toString()).contains("SEARCH_MEMORY_BREAKER");
    // once the first one's TTL passed, nobody having looked, the same search fits again
    long deadline = System.nanoTime() + 15_000_000_000L;
    JsonNode again;
    while (!(again = create(ADMIN, query, 1)).path("state").asText().equals("DONE")) {
      assertThat(System.nanoTime()).as("the breaker is freed").isLessThan(deadline);
      Thread.sleep(500);
    }
    assertThat(http.export(ADMIN, "x=value* | stats count")).hasSize(1);
    http.send("DELETE", "/api/v1/jobs/" + again.path("id").asText(), ADMIN, null);
  }

  @Test
  void aDefaultTtlAboveTheMaximumIsRefusedAtStart() {
    assertThatThrownBy(
            () ->
                new Search(null, null, null, null, null, 7200, null, null, null, null, 3600, null))
        .hasMessageContaining("search.jobTtlSeconds (7200)")
        .hasMessageContaining("search.maxJobTtlSeconds (3600)");
    // without its own setting, the default TTL fits under a small maximum
    assertThat(
            new Search(null, null, null, null, null, null, null, null, null, null, 60, null)
                .jobTtlSeconds())
        .isEqualTo(60);
  }

  private static JsonNode create(String user, String query, long ttl) throws Exception {
    HttpResponse<String> created =
        http.send(
            "POST",
            "/api/v1/jobs",
            user,
            "{\"query\":\"" + query + "\",\"mode\":\"blocking\",\"ttl\":" + ttl + "}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    return TestHttp.json(created.body());
  }

  private static long splunkTtl(String sid) throws Exception {
    HttpResponse<String> status =
        http.send("GET", "/services/search/jobs/" + sid + "?output_mode=json", BOB, null);
    assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
    return TestHttp.json(status.body()).path("entry").get(0).path("content").path("ttl").asLong();
  }

  private static String metrics() throws Exception {
    return http.send("GET", "/metrics", null, null).body();
  }
}
