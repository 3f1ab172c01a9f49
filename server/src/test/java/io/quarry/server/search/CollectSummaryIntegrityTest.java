package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.quarry.server.RunningServer;
import io.quarry.server.TestHttp;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a summary event written by {@code collect} reads back as, over a real server. Each test
 * states what Splunk's Search Reference (or collect.md) promises. (From session 34's review of
 * {@code collect}; its findings failed on 562553a0 and were mended.)
 */
class CollectSummaryIntegrityTest {
  private static final String ADMIN = CollectServers.ADMIN;

  @RegisterExtension
  static final RunningServer SERVER =
      CollectServers.running(
          CollectServers.config(),
          // a log line whose value an outsider chose (a user agent, a URL): it holds a quote
          CollectServers::postForgingEvent);

  private final TestHttp http = SERVER.http();

  @Test
  void aQuoteInALoggedValueDoesNotForgeFieldsOfTheSummary() throws Exception {
    ArrayNode source = http.export(ADMIN, "index=web | stats count by ua");
    assertThat(source).hasSize(1);
    String ua = source.get(0).path("ua").asText();
    assertThat(ua).isEqualTo("x\" report=daily count=999999 y=");
    http.export(
        ADMIN, "index=web | stats count by ua | collect index=summary marker=\"run=forgery\"");
    ArrayNode back = http.export(ADMIN, "index=summary run=forgery | table ua, count, report");
    assertThat(back).hasSize(1);
    // the summary must say what the search said: ua as logged, count 1, no report field
    assertThat(back.get(0).path("ua").asText()).as(back.toString()).isEqualTo(ua);
    assertThat(back.get(0).path("count").toString()).as(back.toString()).isEqualTo("\"1\"");
    assertThat(back.get(0).has("report")).as(back.toString()).isFalse();
  }

  @Test
  void aBackslashReadsBackAsWritten() throws Exception {
    String query = "| makeresults | eval path=\"C:\\\\temp\" | fields - _time";
    String path = http.export(ADMIN, query + " | table path").get(0).path("path").asText();
    assertThat(path).contains("\\");
    http.export(ADMIN, query + " | collect index=summary addinfo=f marker=\"run=backslash\"");
    ArrayNode back = http.export(ADMIN, "index=summary run=backslash | table path, _raw");
    assertThat(back.get(0).path("path").asText()).as(back.toString()).isEqualTo(path);
  }

  @Test
  void aStatsSummaryIsStampedWithTheSearchsEarliestTime() throws Exception {
    // Splunk, collect addtime=true: "the first field that it finds: info_min_time, _time, or
    // now()", info_min_time added by addinfo (default true): the summarized window's start
    http.export(
        ADMIN,
        "index=main | stats count by status | collect index=summary marker=\"run=window\"",
        "&earliest_time=1600000000&latest_time=1800000000");
    ArrayNode back = http.export(ADMIN, "index=summary run=window | eval t=_time | table t, _raw");
    assertThat(back).hasSize(2);
    for (JsonNode row : back) {
      assertThat(row.path("t").asText()).as(back.toString()).isEqualTo("1600000000");
    }
  }

  @Test
  void addinfoDoesNotRepeatTheInfoFieldsAResultHas() throws Exception {
    http.export(
        ADMIN,
        "| makeresults | addinfo | fields - _time | collect index=summary marker=\"run=dupinfo\"",
        "&earliest_time=1600000000&latest_time=1800000000");
    ArrayNode back =
        http.export(
            ADMIN, "index=summary run=dupinfo | eval n=mvcount(info_min_time) | table n, _raw");
    assertThat(back.get(0).path("n").asText()).as(back.toString()).isEqualTo("1");
  }

  @Test
  void explainWritesNothing() throws Exception {
    HttpResponse<String> explained =
        http.send(
            "POST",
            "/services/search/jobs/export",
            ADMIN,
            "output_mode=json&explain=true&search="
                + TestHttp.encode(
                    "| makeresults | append [ | makeresults | eval k=7"
                        + " | collect index=summary marker=\"run=explain\" ]"));
    assertThat(explained.statusCode()).as(explained.body()).isEqualTo(200);
    assertThat(
            http.export(ADMIN, "index=summary run=explain | stats count")
                .get(0)
                .path("count")
                .asLong())
        .isZero();
  }

  @Test
  void aCrossSiteFormPostDoesNotWrite() throws Exception {
    // a page of another site posting a form: a browser sends the Basic credentials it cached
    // for this server (401s ask for them with WWW-Authenticate: Basic) and no preflight
    HttpResponse<String> posted =
        java.net.http.HttpClient.newHttpClient()
            .send(
                java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(SERVER.server().url() + "/services/search/jobs/export"))
                    .header("Authorization", ADMIN)
                    .header("Origin", "https://evil.example")
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(
                        java.net.http.HttpRequest.BodyPublishers.ofString(
                            "output_mode=json&search="
                                + TestHttp.encode(
                                    "| makeresults | eval _raw=\"forged\""
                                        + " | collect index=main marker=\"run=csrf\"")))
                    .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(
            http.export(ADMIN, "index=main run=csrf | stats count").get(0).path("count").asLong())
        .as(posted.statusCode() + " " + posted.body())
        .isZero();
  }

  @Test
  void aRefusedSearchWritesNothingThroughItsSubsearch() throws Exception {
    HttpResponse<String> refused =
        http.send(
            "POST",
            "/services/search/jobs/export",
            ADMIN,
            "output_mode=json&search="
                + TestHttp.encode(
                    "| makeresults | append [ | makeresults | eval k=8"
                        + " | collect index=summary marker=\"run=refused\" ]"
                        + " | collect index=_internal"));
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
    assertThat(
            http.export(ADMIN, "index=summary run=refused | stats count")
                .get(0)
                .path("count")
                .asLong())
        .as("written by a search answered 403")
        .isZero();
  }

  @Test
  void theJobCountsWhatItsMapCollected() throws Exception {
    HttpResponse<String> created =
        http.send(
            "POST",
            "/api/v1/jobs",
            ADMIN,
            "{\"query\":\"| makeresults | map search=\\\"| makeresults"
                + " | collect index=summary marker=run=mapcount\\\"\",\"mode\":\"blocking\"}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String id = TestHttp.json(created.body()).path("id").asText();
    JsonNode status = TestHttp.json(http.send("GET", "/api/v1/jobs/" + id, ADMIN, null).body());
    assertThat(
            http.export(ADMIN, "index=summary run=mapcount | stats count")
                .get(0)
                .path("count")
                .asLong())
        .isEqualTo(1);
    assertThat(status.path("eventsCollected").asLong()).as(status.toString()).isEqualTo(1);
  }
}
