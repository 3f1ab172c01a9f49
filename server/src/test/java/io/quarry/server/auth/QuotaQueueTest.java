package io.quarry.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestConfig;
import io.quarry.server.TestHttp;
import io.quarry.server.jobs.JobManager;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code search.queueOverQuota: true}: a search job past its user's {@code srchJobsQuota} waits
 * (state {@code QUEUED}, a message saying why) and runs once a slot is free, as Splunk queues it;
 * cancelled while it waits it never runs; a query that does not parse is still a 400 at once;
 * streamed searches (export) are still refused with 429; at most {@value
 * JobManager#MAX_WAITING_PER_USER} jobs of a user wait, then 429.
 */
class QuotaQueueTest {
  /** Backtracks exponentially on the loaded events: a search that runs until stopped. */
  private static final String SLOW =
      "* | where match(_raw, \"^(?<x>(a|aa)+(\\\\1))$\") | stats count";

  private static final String CAROL = TestHttp.basic("carol", "carol-pw");
  private static final String ADMIN = TestHttp.basic("admin", "admin-pw");

  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;
  private static TestHttp http;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestConfig.yaml("search: {queueOverQuota: true}")
            .user("carol", "single")
            .role("single", "{srchJobsQuota: 1}")
            .start(directory);
    http = new TestHttp(server.url());
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 4; i++) {
      lines.append("a".repeat(46)).append("b\n");
    }
    lines.append("2026-01-07T10:00:00Z x=1\n");
    HttpResponse<String> loaded =
        http.send("POST", "/services/collector/raw?sourcetype=app", "Splunk tok", lines.toString());
    assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
  }

  @Test
  void pastItsQuotaAJobWaitsAndRunsOnceASlotIsFree() throws Exception {
    String running = submit(SLOW);
    String waiting = submit("x=1 | stats count");
    JsonNode queued = status(waiting);
    assertThat(queued.path("state").asText()).isEqualTo("QUEUED");
    assertThat(queued.path("messages").toString()).contains("srchJobsQuota").contains("carol");
    // Splunk's view of it
    HttpResponse<String> splunk =
        http.send("GET", "/services/search/jobs/" + waiting + "?output_mode=json", CAROL, null);
    assertThat(splunk.body()).contains("\"dispatchState\":\"QUEUED\"").contains("srchJobsQuota");
    // still waiting a moment later: the quota holds
    Thread.sleep(1_500);
    assertThat(status(waiting).path("state").asText()).isEqualTo("QUEUED");
    // a streamed search is not queued: 429 as before
    HttpResponse<String> export =
        http.send(
            "POST",
            "/services/search/jobs/export",
            CAROL,
            "output_mode=json&search=" + TestHttp.encode("x=1"));
    assertThat(export.statusCode()).as(export.body()).isEqualTo(429);
    // a query that does not parse is refused now, not once it had its turn
    HttpResponse<String> broken =
        http.send("POST", "/api/v1/jobs", CAROL, "{\"query\":\"x=1 | stats count(\"}");
    assertThat(broken.statusCode()).as(broken.body()).isEqualTo(400);

    http.send("POST", "/api/v1/jobs/" + running + "/cancel", CAROL, null);
    JsonNode done = awaitFinished(waiting);
    assertThat(done.path("state").asText()).as(done.toString()).isEqualTo("DONE");
    HttpResponse<String> results =
        http.send("GET", "/api/v1/jobs/" + waiting + "/results", CAROL, null);
    assertThat(results.body()).contains("[[1]]");
    delete(running);
    delete(waiting);
  }

  @Test
  void aJobCancelledWhileItWaitsNeverRunsAndTheWaitIsBounded() throws Exception {
    String running = submit(SLOW);
    List<String> waiting = new ArrayList<>();
    for (int i = 0; i < JobManager.MAX_WAITING_PER_USER; i++) {
      waiting.add(submit("x=1 | eval n=" + i));
    }
    HttpResponse<String> refused =
        http.send("POST", "/api/v1/jobs", CAROL, "{\"query\":\"x=1 | head 1\"}");
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(429);
    assertThat(refused.headers().firstValue("Retry-After")).isPresent();
    assertThat(refused.body()).contains("SEARCH_QUOTA");

    String cancelled = waiting.getFirst();
    http.send("POST", "/api/v1/jobs/" + cancelled + "/cancel", CAROL, null);
    assertThat(status(cancelled).path("state").asText()).isEqualTo("CANCELLED");
    for (String job : waiting.subList(1, waiting.size())) {
      delete(job); // deleted while waiting: gone, never run
    }
    http.send("POST", "/api/v1/jobs/" + running + "/cancel", CAROL, null);
    awaitFinished(running);
    assertThat(status(cancelled).path("state").asText()).isEqualTo("CANCELLED");
    assertThat(status(cancelled).path("eventsRead").asLong()).isZero();
    // the waits are audited as cancelled searches, the slot is free again
    http.awaitRows(
        ADMIN,
        "audited",
        "index=_audit user=carol action=search info=cancelled search_id=" + cancelled);
    String after = submit("x=1 | stats count");
    assertThat(awaitFinished(after).path("state").asText()).isEqualTo("DONE");
    delete(running);
    delete(cancelled);
    delete(after);
  }

  private static String submit(String query) throws Exception {
    HttpResponse<String> created =
        http.send(
            "POST",
            "/api/v1/jobs",
            CAROL,
            "{\"query\":\""
                + query.replace("\\", "\\\\").replace("\"", "\\\"")
                + "\",\"timeout\":120}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    return TestHttp.json(created.body()).path("id").asText();
  }

  private static JsonNode status(String id) throws Exception {
    return TestHttp.json(http.send("GET", "/api/v1/jobs/" + id, CAROL, null).body());
  }

  private static JsonNode awaitFinished(String id) throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    JsonNode status;
    while (List.of("QUEUED", "RUNNING").contains((status = status(id)).path("state").asText())) {
      assertThat(System.nanoTime()).as("job " + id + " finishes").isLessThan(deadline);
      Thread.sleep(50);
    }
    return status;
  }

  private static void delete(String id) throws Exception {
    http.send("DELETE", "/api/v1/jobs/" + id, CAROL, null);
  }
}
