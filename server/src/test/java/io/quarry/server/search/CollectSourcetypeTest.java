package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.quarry.server.RunningServer;
import io.quarry.server.TestConfig;
import io.quarry.server.TestHttp;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code collect sourcetype=X} over a real server: a summary event holds its values escaped ({@code
 * \"}), which only a sourcetype read {@code kvMode: auto_escaped} reads back whole ({@link
 * CollectSourcetype}). Under any other — {@code auto}, the mode of a sourcetype not configured,
 * where a quote ends a value and a logged {@code x" report=daily count=999999 y=} would forge
 * fields of the summary — the search is refused before it writes anything, with a 400 naming the
 * sourcetype, its mode and the fix. (Without the check, session 37 read a summary written under
 * {@code kvMode: auto} back as {@code ua=x\}, {@code count=999999}, {@code report=daily}.) Every
 * query here makes its results without {@code _raw} (an aggregation, {@code makeresults}); events
 * that keep theirs are written under any sourcetype ({@link CollectKeptRawTest}).
 */
class CollectSourcetypeTest {
  private static final String ADMIN = CollectServers.ADMIN;
  private static final String LOGGED = CollectServers.FORGING_UA;

  @RegisterExtension
  static final RunningServer SERVER =
      CollectServers.running(
          TestConfig.yaml(
                  "indexes: [main, summary, web]", // CollectServers.config()'s, and sourcetypes
                  "sourcetypes:",
                  "  escaped_summary: {kvMode: auto_escaped}",
                  "  plain_summary: {kvMode: auto}",
                  "  json_summary: {kvMode: json}",
                  "  quiet_summary: {kvMode: none}")
              .hecIndexes("main", "web"),
          // a log line whose value an outsider chose (a user agent): it holds a quote
          CollectServers::postForgingEvent);

  private final TestHttp http = SERVER.http();

  private static HttpResponse<String> search(String query) throws Exception {
    return CollectServers.export(SERVER, query);
  }

  private static JsonNode refused(String query) throws Exception {
    HttpResponse<String> response = search(query);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
    JsonNode error = TestHttp.json(response.body()).path("error");
    assertThat(error.path("code").asText()).as(response.body()).isEqualTo("COLLECT_SOURCETYPE");
    return error;
  }

  private long summaries(String run) throws Exception {
    return http.export(ADMIN, "index=summary run=" + run + " | stats count")
        .get(0)
        .path("count")
        .asLong();
  }

  @Test
  void aSourcetypeReadAsAutoIsRefusedAndNothingIsWritten() throws Exception {
    for (String sourcetype : new String[] {"plain_summary", "never_configured"}) {
      JsonNode error =
          refused(
              "index=web | stats count by ua | collect index=summary sourcetype="
                  + sourcetype
                  + " marker=\"run=forged\"");
      assertThat(error.path("sourcetype").asText()).isEqualTo(sourcetype);
      assertThat(error.path("kvMode").asText()).isEqualTo("auto");
      assertThat(error.path("message").asText())
          .contains("sourcetype '" + sourcetype + "'")
          .contains("first quote")
          .contains("sourcetype=stash")
          .contains("kvMode: auto_escaped");
    }
    assertThat(summaries("forged")).isZero();
  }

  @Test
  void aSourcetypeReadingNoPairsIsRefused() throws Exception {
    for (String[] mode : new String[][] {{"json_summary", "json"}, {"quiet_summary", "none"}}) {
      JsonNode error =
          refused("| makeresults | eval n=1 | collect index=summary sourcetype=" + mode[0]);
      assertThat(error.path("kvMode").asText()).isEqualTo(mode[1]);
      assertThat(error.path("message").asText()).contains("reads no key=value pair");
    }
  }

  @Test
  void testModeAndASubsearchsCollectAreRefusedToo() throws Exception {
    refused("| makeresults | collect index=summary sourcetype=plain_summary testmode=true");
    // checked before any subsearch runs: the outer search's rows are not written either
    refused(
        "| makeresults | eval n=1 | collect index=summary marker=\"run=outer\""
            + " | append [| makeresults | collect index=summary sourcetype=plain_summary]");
    assertThat(summaries("outer")).isZero();
  }

  @Test
  void anAutoEscapedSourcetypeReadsTheLoggedValueBackWhole() throws Exception {
    HttpResponse<String> written =
        search(
            "index=web | stats count by ua"
                + " | collect index=summary sourcetype=escaped_summary marker=\"run=escaped\"");
    assertThat(written.statusCode()).as(written.body()).isEqualTo(200);
    ArrayNode back =
        http.export(ADMIN, "index=summary run=escaped | table sourcetype, ua, count, report");
    assertThat(back).hasSize(1);
    assertThat(back.get(0).path("sourcetype").asText()).isEqualTo("escaped_summary");
    assertThat(back.get(0).path("ua").asText()).as(back.toString()).isEqualTo(LOGGED);
    assertThat(back.get(0).path("count").asText()).as(back.toString()).isEqualTo("1");
    assertThat(back.get(0).has("report")).as(back.toString()).isFalse();
  }

  @Test
  void stashTheDefaultIsWritten() throws Exception {
    HttpResponse<String> written =
        search(
            "| makeresults | eval n=1 | collect index=summary sourcetype=stash marker=\"run=s\"");
    assertThat(written.statusCode()).as(written.body()).isEqualTo(200);
    assertThat(summaries("s")).isEqualTo(1);
  }
}
