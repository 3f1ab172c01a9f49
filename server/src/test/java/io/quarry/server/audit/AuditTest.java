package io.quarry.server.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestConfig;
import io.quarry.server.TestHttp;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit trail over a real server: a plain user's logins (good and bad), searches and logout,
 * and admin's configuration changes, appear in {@code _audit} for admin with who, what, the query
 * text, time range, counts, duration and status; a plain user cannot read {@code _audit}; text a
 * user controls (a user name, a query) cannot forge another event's fields.
 */
class AuditTest {
  private static final String ADMIN = TestHttp.basic("admin", "admin-pw");
  private static final String BOB = TestHttp.basic("bob", "bob-pw");

  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;
  private static TestHttp http;

  @BeforeAll
  static void start() throws Exception {
    server = TestConfig.yaml().user("bob").start(directory);
    http = new TestHttp(server.url());
    HttpResponse<String> loaded =
        http.send("POST", "/services/collector/raw?sourcetype=app", "Splunk tok", "one\ntwo\n");
    assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
  }

  @Test
  void aPlainUsersLoginsSearchesAndLogoutAreAuditedForAdminOnly() throws Exception {
    // a failed login, a good one, a search with the session key, a logout
    assertThat(http.send("POST", "/services/auth/login", null, "username=bob&password=nope"))
        .extracting(HttpResponse::statusCode)
        .isEqualTo(401);
    HttpResponse<String> login =
        http.send(
            "POST", "/services/auth/login", null, "username=bob&password=bob-pw&output_mode=json");
    assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
    String session = "Splunk " + TestHttp.json(login.body()).get("sessionKey").asText();
    HttpResponse<String> search =
        http.send(
            "POST",
            "/services/search/jobs/export",
            session,
            "output_mode=json&earliest_time=-1d&latest_time=now&search="
                + TestHttp.encode("search one OR two | stats count"));
    assertThat(search.statusCode()).as(search.body()).isEqualTo(200);
    // a job too, through the native API
    HttpResponse<String> job =
        http.send(
            "POST",
            "/api/v1/jobs",
            BOB,
            "{\"query\":\"search one | stats count by host\",\"mode\":\"blocking\"}");
    assertThat(job.statusCode()).as(job.body()).isEqualTo(201);
    String jobId = TestHttp.json(job.body()).get("id").asText();
    String key = session.substring("Splunk ".length());
    HttpResponse<String> logout =
        http.send("DELETE", "/services/authentication/httpauth-tokens/" + key, session, null);
    assertThat(logout.statusCode()).as(logout.body()).isEqualTo(200);
    assertThat(http.send("GET", "/services/server/info", session, null).statusCode())
        .as("the session is gone")
        .isEqualTo(401);
    // bob's Basic credentials still work, but bob cannot read _audit
    for (String query :
        new String[] {"index=_audit", "index=_*", "index=*", "index=_AUDIT OR index=main"}) {
      ArrayNode rows = http.export(BOB, query + " action=search");
      assertThat(rows).as(query).isEmpty();
    }
    assertThat(
            http.send(
                    "POST",
                    "/services/search/jobs/export",
                    BOB,
                    "output_mode=json&search=" + TestHttp.encode("index=_audit | stats count"))
                .body())
        .contains("index '_audit' is not searchable by user bob");

    JsonNode failed =
        awaitOne(
            "index=_audit user=bob action=\"login attempt\" info=failed"
                + " | table user action info reason method clientip");
    assertThat(failed.get("reason").asText()).isEqualTo("wrong password");
    assertThat(failed.get("method").asText()).isEqualTo("login");
    assertThat(failed.get("clientip").asText()).isEqualTo("127.0.0.1");
    awaitOne("index=_audit user=bob action=\"login attempt\" info=succeeded method=login");
    JsonNode out = awaitOne("index=_audit user=bob action=logout | table session by");
    assertThat(out.get("by").asText()).isEqualTo("bob");
    assertThat(out.get("session").asText()).hasSize(16).isNotEqualTo(key.substring(0, 16));

    JsonNode searched =
        awaitOne(
            "index=_audit user=bob action=search info=completed indexes=main \"stats count\" NOT host"
                + " | table search result_count event_count api_et api_lt total_run_time status"
                + " indexes search_id");
    assertThat(searched.get("search").asText()).isEqualTo("search one OR two | stats count");
    assertThat(searched.get("result_count").asText()).isEqualTo("1");
    assertThat(searched.get("event_count").asText()).isEqualTo("2");
    assertThat(searched.get("status").asText()).isEqualTo("200");
    assertThat(searched.get("indexes").asText()).isEqualTo("main");
    double now = System.currentTimeMillis() / 1000.0;
    assertThat(Double.parseDouble(searched.get("api_et").asText()))
        .isBetween(now - 86_400 - 600, now - 86_400 + 600);
    assertThat(Double.parseDouble(searched.get("api_lt").asText())).isBetween(now - 600, now);
    assertThat(Double.parseDouble(searched.get("total_run_time").asText())).isBetween(0.0, 60.0);

    JsonNode jobEvent =
        awaitOne("index=_audit user=bob action=search search_id=" + jobId + " | table search");
    assertThat(jobEvent.get("search").asText()).isEqualTo("search one | stats count by host");
  }

  @Test
  void failedAndRefusedSearchesAreAuditedWithTheirStatus() throws Exception {
    // outputlookup without edit_lookups: refused with 403 when planned, so never run or audited
    // as a search; a search that fails while running is audited with its error
    HttpResponse<String> refused =
        http.send("POST", "/api/v1/lookups/colours", BOB, "name,colour\nsky,blue\n");
    assertThat(refused.statusCode()).isIn(403, 404, 405);
    HttpResponse<String> put =
        http.send("PUT", "/api/v1/lookups/colours", BOB, "name,colour\nsky,blue\n");
    assertThat(put.statusCode()).isEqualTo(403);
    HttpResponse<String> adminPut =
        http.send("PUT", "/api/v1/lookups/colours", ADMIN, "name,colour\nsky,blue\n");
    assertThat(adminPut.statusCode()).as(adminPut.body()).isEqualTo(200);

    // a query that does not parse is audited with its error
    HttpResponse<String> bad =
        http.send(
            "POST",
            "/services/search/jobs/export",
            BOB,
            "output_mode=json&search=" + TestHttp.encode("search one | nosuchcommand"));
    assertThat(bad.statusCode()).isEqualTo(400);
    JsonNode parse =
        awaitOne(
            "index=_audit user=bob action=search info=failed error=QUERY_PARSE"
                + " | table status search");
    assertThat(parse.get("status").asText()).isEqualTo("400");
    assertThat(parse.get("search").asText()).isEqualTo("search one | nosuchcommand");

    JsonNode denied =
        awaitOne("index=_audit user=bob action=edit_lookups info=denied | table object operation");
    assertThat(denied.get("object").asText()).isEqualTo("colours");
    assertThat(denied.get("operation").asText()).isEqualTo("PUT");
    awaitOne("index=_audit user=admin action=edit_lookups info=succeeded object=colours");
    awaitOne("index=_audit action=\"server start\" | table users");
  }

  @Test
  void userControlledTextCannotForgeFields() throws Exception {
    // a login name and a query that look like audit pairs stay text of bob's own events
    String forged = "admin, action=logout, info=succeeded";
    http.send(
        "POST",
        "/services/auth/login",
        null,
        "username=" + TestHttp.encode(forged) + "&password=x");
    http.export(BOB, "search \"user=admin info=forged action=logout\" | head 1");
    JsonNode login =
        awaitOne(
            "index=_audit action=\"login attempt\" info=failed reason=\"no such user\""
                + " | table user action info");
    assertThat(login.get("user").asText()).isEqualTo(forged);
    assertThat(login.get("action").asText()).isEqualTo("login attempt");
    // not the admin's own polling searches, which are audited too and contain the word
    JsonNode search =
        awaitOne("index=_audit action=search forged NOT user=admin | table user action info");
    assertThat(search.get("user").asText()).isEqualTo("bob");
    assertThat(search.get("action").asText()).isEqualTo("search");
    assertThat(search.get("info").asText()).isEqualTo("completed");
  }

  @Test
  void eventsRenderAsSplunkAuditLinesWithTheSearchLast() {
    AuditEvent event =
        AuditEvent.of(java.time.Instant.parse("2026-01-02T03:04:05.678Z"), "bob", "search", "ok")
            .with("search_id", "s1")
            .with("search", "index=main \"a b\" | stats count")
            .with("reason", "has spaces, and \"quotes\"");
    io.quarry.codecs.store.Event stored = event.toEvent("host1");
    assertThat(stored.raw())
        .isEqualTo(
            "Audit:[timestamp=2026-01-02T03:04:05.678Z, user=bob, action=search, info=ok,"
                + " search_id=s1, reason=\"has spaces, and 'quotes'\","
                + " search='index=main \"a b\" | stats count']");
    assertThat(stored.sourcetype()).isEqualTo("audittrail");
    assertThat(stored.indexedFields().get("search"))
        .containsExactly("index=main \"a b\" | stats count");
    String huge = "x".repeat(AuditEvent.MAX_FIELD_CHARS + 10);
    io.quarry.codecs.store.Event cut = event.with("search", huge).toEvent("host1");
    assertThat(cut.indexedFields().get("search").get(0)).hasSize(AuditEvent.MAX_FIELD_CHARS);
    assertThat(cut.indexedFields().get("truncated")).containsExactly("true");
    assertThat(cut.raw()).contains(huge);
  }

  /** Waits (the trail is written a moment later) for exactly one row of an admin search. */
  @Test
  void refusedChangesAndChangesToOtherUsersJobsAreAudited() throws Exception {
    // a plain user defining a macro: 403, audited as a denied edit_macros
    HttpResponse<String> macro =
        http.send("PUT", "/api/v1/macros/mine", BOB, "{\"definition\": \"index=main\"}");
    assertThat(macro.statusCode()).as(macro.body()).isEqualTo(403);
    awaitOne("index=_audit user=bob action=edit_macros info=denied operation=\"Defining macros\"");
    // changing admin's saved search: 403 NOT_OWNER, audited
    String saved = "/servicesNS/nobody/search/saved/searches";
    assertThat(http.send("POST", saved, ADMIN, "name=admins&search=one").statusCode())
        .isEqualTo(201);
    HttpResponse<String> notBobs = http.send("POST", saved + "/admins", BOB, "search=two");
    assertThat(notBobs.statusCode()).as(notBobs.body()).isEqualTo(403);
    awaitOne("index=_audit user=bob action=edit_saved_searches info=denied object=admins");
    // admin deleting bob's job: the job's own search event names bob, this one admin
    HttpResponse<String> job =
        http.send("POST", "/api/v1/jobs", BOB, "{\"query\":\"one\",\"mode\":\"blocking\"}");
    String id = TestHttp.json(job.body()).get("id").asText();
    assertThat(http.send("POST", "/api/v1/jobs/" + id + "/touch?ttl=60", BOB, null).statusCode())
        .isEqualTo(200);
    assertThat(http.send("DELETE", "/api/v1/jobs/" + id, ADMIN, null).statusCode()).isEqualTo(200);
    JsonNode control =
        awaitOne(
            "index=_audit action=\"job control\" search_id="
                + id
                + " | table user operation owner");
    assertThat(control.get("user").asText()).isEqualTo("admin");
    assertThat(control.get("operation").asText()).isEqualTo("delete");
    assertThat(control.get("owner").asText()).isEqualTo("bob");
    // bob's own changes to his jobs are not recorded one by one
    assertThat(http.export(ADMIN, "index=_audit user=bob action=\"job control\"")).isEmpty();
  }

  @Test
  void startAndStopAreAuditedWithTheUsersAndRolesDefinedOverRest(@TempDir Path other)
      throws Exception {
    TestConfig config = TestConfig.yaml();
    QuarryServer first = config.start(other);
    TestHttp firstHttp = new TestHttp(first.url());
    assertThat(
            firstHttp
                .send(
                    "POST",
                    "/services/authorization/roles",
                    ADMIN,
                    "name=ops&srchIndexesAllowed=main")
                .statusCode())
        .isEqualTo(201);
    assertThat(
            firstHttp
                .send(
                    "POST",
                    "/services/authentication/users",
                    ADMIN,
                    "name=olga&password=olga-password-1&roles=ops")
                .statusCode())
        .isEqualTo(201);
    first.close();
    QuarryServer second = config.start(other);
    try {
      TestHttp secondHttp = new TestHttp(second.url());
      long deadline = System.nanoTime() + 30_000_000_000L;
      ArrayNode starts;
      while ((starts =
                  secondHttp.export(
                      ADMIN,
                      "index=_audit action=\"server start\" | sort _time | table users roles"))
              .size()
          < 2) {
        assertThat(System.nanoTime()).as("second start audited").isLessThan(deadline);
        Thread.sleep(100);
      }
      JsonNode latest = starts.get(starts.size() - 1);
      assertThat(latest.get("users").asText()).isEqualTo("olga:ops");
      assertThat(latest.get("roles").asText()).contains("ops").contains("admin");
      assertThat(secondHttp.export(ADMIN, "index=_audit action=\"server stop\"")).hasSize(1);
    } finally {
      second.close();
    }
  }

  @Test
  void aStreamOfFailedLoginsIsRecordedWithinItsBudget(@TempDir Path other) throws Exception {
    QuarryServer flooded = TestConfig.yaml().start(other);
    try {
      TestHttp floodedHttp = new TestHttp(flooded.url());
      // guessing across 200 names (each under the per-name lock)
      for (int i = 0; i < 200; i++) {
        HttpResponse<String> refused =
            floodedHttp.send(
                "GET", "/services/server/info", TestHttp.basic("guess" + i, "pw"), null);
        assertThat(refused.statusCode()).isEqualTo(401);
      }
      floodedHttp.awaitRows(
          ADMIN,
          "the suppression is recorded",
          "index=_audit action=\"login attempt\" info=suppressed");
      assertThat(
              floodedHttp.export(
                  ADMIN, "index=_audit action=\"login attempt\" info=failed | stats count"))
          .first()
          .extracting(row -> row.get("count").asInt())
          .isEqualTo(io.quarry.server.audit.FailedLoginBudget.PER_MINUTE);
      // other events still go in: admin's search is audited
      assertThat(floodedHttp.export(ADMIN, "index=_audit action=\"server start\"")).hasSize(1);
    } finally {
      flooded.close();
    }
  }

  private static JsonNode awaitOne(String query) throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (true) {
      ArrayNode rows = http.export(ADMIN, query);
      if (rows.size() == 1) {
        return rows.get(0);
      }
      assertThat(rows.size()).as(query + ": " + rows).isLessThanOrEqualTo(1);
      assertThat(System.nanoTime()).as("audit event for " + query).isLessThan(deadline);
      Thread.sleep(100);
    }
  }
}
