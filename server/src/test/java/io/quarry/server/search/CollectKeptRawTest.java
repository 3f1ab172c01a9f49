package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.quarry.ql.plan.WritesEvents;
import io.quarry.server.RunningServer;
import io.quarry.server.TestConfig;
import io.quarry.server.TestHttp;
import io.quarry.server.TestServers;
import io.quarry.server.http.ApiException;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code collect sourcetype=X} where X is not read {@code kvMode: auto_escaped} ({@link
 * CollectSourcetype}), over a real server: copying events that keep their {@code _raw} ({@code
 * index=web | collect index=archive sourcetype=access_combined}) is written, each event's text
 * verbatim, and reads back as the sourcetype's own events; a search whose results can lack {@code
 * _raw} (an aggregation, {@code table}, {@code fields - _raw}, {@code eval _raw=…}, a rename of
 * {@code _raw}, {@code makeresults}, {@code append}) is refused when planned, testmode too; and the
 * writer refuses a page holding a summary event before any of it is written. (Before, session 37's
 * planning refused every sourcetype not {@code auto_escaped}, the copy of raw events too.)
 */
class CollectKeptRawTest {
  private static final String ADMIN = CollectServers.ADMIN;
  // an access log line whose user agent an outsider chose: it holds quotes and pairs
  private static final List<String> LINES =
      List.of(
          "203.0.113.7 - - [10/Oct/2026:13:55:36 +0000] \"GET /cart.do?item=4 HTTP/1.1\" 200 2326"
              + " \"-\" \"Mozilla/5.0 \\\" report=daily count=9\"",
          "198.51.100.2 - frank [10/Oct/2026:13:55:37 +0000] \"POST /login HTTP/1.1\" 302 0"
              + " \"http://example.com/\" \"curl/8.5\"");

  @RegisterExtension
  static final RunningServer SERVER =
      CollectServers.running(
          TestConfig.yaml("indexes: [main, summary, web, archive, rehearsal]")
              .hecIndexes("main", "web"),
          (server, http) -> {
            HttpResponse<String> loaded =
                TestServers.postRaw(
                    server, "tok", "access_combined", "web", String.join("\n", LINES));
            assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
            assertThat(http.export(ADMIN, "index=web | stats count").get(0).path("count").asInt())
                .isEqualTo(2);
          });

  private final TestHttp http = SERVER.http();

  private static HttpResponse<String> search(String query) throws Exception {
    return CollectServers.export(SERVER, query);
  }

  private long count(String query) throws Exception {
    return http.export(ADMIN, query + " | stats count").get(0).path("count").asLong();
  }

  @Test
  void rawEventsAreCopiedVerbatimAndReadAsTheirSourcetype() throws Exception {
    HttpResponse<String> written =
        search("index=web | collect index=archive sourcetype=access_combined");
    assertThat(written.statusCode()).as(written.body()).isEqualTo(200);
    ArrayNode back =
        http.export(
            ADMIN,
            "index=archive | sort clientip"
                + " | table _raw, sourcetype, source, clientip, status");
    assertThat(back).hasSize(2);
    // sorted by clientip: 198.51… before 203.0…
    assertThat(back.get(0).path("_raw").asText()).isEqualTo(LINES.get(1));
    assertThat(back.get(1).path("_raw").asText()).isEqualTo(LINES.get(0));
    assertThat(back.get(1).path("sourcetype").asText()).isEqualTo("access_combined");
    assertThat(back.get(1).path("source").asText()).isEqualTo("collect");
    assertThat(back.get(1).path("clientip").asText()).isEqualTo("203.0.113.7");
    assertThat(back.get(1).path("status").asText()).isEqualTo("200");
    assertThat(back.get(0).path("status").asText()).isEqualTo("302");
    // every field as the original events read under their sourcetype (its kvMode auto reads the
    // user agent's pairs in both alike: the copy adds nothing the original did not hold)
    String fields =
        " | sort clientip | table clientip, user, method, uri, status, useragent, report";
    assertThat(http.export(ADMIN, "index=archive" + fields))
        .isEqualTo(http.export(ADMIN, "index=web" + fields));
  }

  @Test
  void aSearchWhoseResultsCanLackRawIsRefusedBeforeItRuns() throws Exception {
    for (String before :
        List.of(
            "index=web | stats count by useragent",
            "index=web | table clientip, status",
            "index=web | fields - _raw",
            "index=web | eval _raw=null()",
            "index=web | rename _raw AS line",
            "index=web | rename status AS _raw",
            "| makeresults",
            "index=web | append [| makeresults]")) {
      HttpResponse<String> response =
          search(before + " | collect index=archive sourcetype=access_combined marker=\"r=no\"");
      assertThat(response.statusCode()).as(before + ": " + response.body()).isEqualTo(400);
      JsonNode error = TestHttp.json(response.body()).path("error");
      assertThat(error.path("code").asText()).as(before).isEqualTo("COLLECT_SOURCETYPE");
      assertThat(error.path("sourcetype").asText()).isEqualTo("access_combined");
      assertThat(error.path("kvMode").asText()).isEqualTo("auto");
      assertThat(error.path("message").asText())
          .contains("first quote")
          .contains("sourcetype=stash");
    }
    assertThat(count("index=archive r=no")).isZero();
    // fields naming others keeps _raw (as Splunk's fields keeps the internal fields), so does eval
    // of another field: written, when the events' sourcetype is kept too (collect3: without it how
    // the text is read is unknown, and the writer refuses it before writing any of it)
    HttpResponse<String> unknown =
        search(
            "index=web | eval copy=1 | fields clientip"
                + " | collect index=rehearsal sourcetype=access_combined");
    assertThat(unknown.statusCode()).as(unknown.body()).isEqualTo(400);
    assertThat(TestHttp.json(unknown.body()).path("error").path("message").asText())
        .contains("no sourcetype field");
    assertThat(count("index=rehearsal")).isZero();
    HttpResponse<String> kept =
        search(
            "index=web | eval copy=1 | fields clientip, sourcetype"
                + " | collect index=rehearsal sourcetype=access_combined");
    assertThat(kept.statusCode()).as(kept.body()).isEqualTo(200);
    assertThat(count("index=rehearsal")).isEqualTo(2);
  }

  @Test
  void testModeIsCheckedAlikeAndWritesNothing() throws Exception {
    HttpResponse<String> refused =
        search(
            "index=web | stats count | collect index=archive sourcetype=access_combined"
                + " testmode=true");
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
    assertThat(TestHttp.json(refused.body()).path("error").path("code").asText())
        .isEqualTo("COLLECT_SOURCETYPE");
    HttpResponse<String> passed =
        search(
            "index=web | collect index=archive sourcetype=access_combined testmode=true"
                + " marker=\"r=test\"");
    assertThat(passed.statusCode()).as(passed.body()).isEqualTo(200);
    assertThat(count("index=archive r=test")).isZero();
  }

  /**
   * The backstop, for a result without {@code _raw} the planning did not foresee (no query of the
   * built-in commands reaches it: the rule at planning refuses each that could): the server's
   * writer of a {@code collect}, on the server's own ingest path, refuses a page holding a summary
   * event before any of its events is written, with the planning's error.
   */
  @Test
  void theWriterRefusesAPageHoldingASummaryBeforeWritingAnyOfIt() throws Exception {
    CollectSourcetype sourcetype =
        CollectSourcetype.of(SERVER.server().ingest().sourcetypes(), "access_combined", "collect");
    CollectWriter writer = new CollectWriter(SERVER.server().ingest(), "summary", "h", sourcetype);
    long now = System.currentTimeMillis() * 1000;
    WritesEvents.Written raw =
        new WritesEvents.Written(
            now, LINES.get(1), null, "backstop", "access_combined", false, "access_combined");
    WritesEvents.Written summary =
        new WritesEvents.Written(
            now, "n=\"x\\\" forged=1\"", null, "backstop", "access_combined", true, null);
    assertThatThrownBy(() -> writer.write(List.of(raw, summary), () -> {}))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.status().code()).isEqualTo(400);
              assertThat(e.code()).isEqualTo("COLLECT_SOURCETYPE");
            });
    assertThat(writer.written()).isZero();
    writer.write(List.of(raw), () -> {}); // a page of raw events only: written
    assertThat(writer.written()).isEqualTo(1);
    assertThat(count("index=summary source=backstop")).isEqualTo(1);
    // under stash the same page is written whole
    CollectWriter stash =
        new CollectWriter(
            SERVER.server().ingest(),
            "summary",
            "h",
            CollectSourcetype.of(SERVER.server().ingest().sourcetypes(), "stash", "collect"));
    stash.write(List.of(raw, summary), () -> {});
    assertThat(stash.written()).isEqualTo(2);
  }
}
