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
 * review-c37 (collect2): a result that keeps its {@code _raw} is not always "the original text read
 * as the original sourcetype reads it". Where the events read were written to be read with escapes
 * — a summary index's {@code stash} events ({@code kvMode: auto_escaped}), or {@code _json} events
 * ({@code kvMode: json}) — their {@code _raw} copied under a sourcetype read {@code kvMode: auto}
 * is read plain: the escaped quote of a value an outsider chose ends the value, and the rest reads
 * as pairs. So {@code index=summary | collect index=archive sourcetype=plain_summary} forges the
 * very fields CollectSourcetypeTest shows for a summary made of fields, one hop later; collect2's
 * planning lets it through ({@code EventText.keepsEventsRaw}: a search, nothing after it) and its
 * run-time backstop looks only at a null {@code _raw}. The property asserted: either the copy is
 * refused, or nothing it wrote reads a field the events read did not hold.
 */
class CollectKeptRawForgeryTest {
  private static final String ADMIN = CollectServers.ADMIN;
  private static final String LOGGED = CollectServers.FORGING_UA;

  @RegisterExtension
  static final RunningServer SERVER =
      CollectServers.running(
          TestConfig.yaml(
                  "indexes: [main, summary, web, archive, copies]",
                  "sourcetypes:",
                  "  plain_summary: {kvMode: auto}")
              .hecIndexes("main", "web"),
          CollectServers::postForgingEvent);

  private final TestHttp http = SERVER.http();

  private static HttpResponse<String> search(String query) throws Exception {
    return CollectServers.export(SERVER, query);
  }

  @Test
  void aSummaryIndexsEventsCopiedUnderAnAutoSourcetypeForgeNoField() throws Exception {
    HttpResponse<String> summary =
        search("index=web | stats count by ua | collect index=summary marker=\"run=first\"");
    assertThat(summary.statusCode()).as(summary.body()).isEqualTo(200);
    ArrayNode read = http.export(ADMIN, "index=summary run=first | table ua, count, report");
    assertThat(read).hasSize(1);
    assertThat(read.get(0).path("ua").asText()).isEqualTo(LOGGED);
    assertThat(read.get(0).path("count").asText()).isEqualTo("1");
    assertThat(read.get(0).has("report")).as("stash reads it whole").isFalse();

    HttpResponse<String> copied =
        search("index=summary run=first | collect index=archive sourcetype=plain_summary");
    ArrayNode back = http.export(ADMIN, "index=archive | table _raw, ua, count, report");
    // collect3: refused before anything is written, naming the events' own sourcetype
    assertThat(copied.statusCode()).as(copied.body()).isEqualTo(400);
    JsonNode error = TestHttp.json(copied.body()).path("error");
    assertThat(error.path("code").asText()).isEqualTo("COLLECT_SOURCETYPE");
    assertThat(error.path("eventSourcetype").asText()).isEqualTo("stash");
    assertThat(error.path("eventKvMode").asText()).isEqualTo("auto_escaped");
    assertThat(back).isEmpty();
    for (JsonNode row : back) {
      assertThat(row.has("report"))
          .as("copy answered %d; the archive reads %s", copied.statusCode(), row)
          .isFalse();
      assertThat(row.path("count").asText()).as(row.toString()).isEqualTo("1");
    }
  }

  /**
   * {@code _json} is read {@code kvMode: json} (jsonkv; before it was {@code auto}, as {@code
   * plain_summary} is, and this copy was written): its events' text copied under an {@code auto}
   * sourcetype would read the pairs inside a JSON string ({@code report=daily count=999999}) as
   * fields, so the copy is refused before anything is written, naming the events' sourcetype and
   * mode.
   */
  @Test
  void jsonEventsCopiedUnderAnAutoSourcetypeAreRefused() throws Exception {
    HttpResponse<String> copied =
        search("index=web | collect index=copies sourcetype=plain_summary");
    assertThat(copied.statusCode()).as(copied.body()).isEqualTo(400);
    JsonNode error = TestHttp.json(copied.body()).path("error");
    assertThat(error.path("code").asText()).isEqualTo("COLLECT_SOURCETYPE");
    assertThat(error.path("eventSourcetype").asText()).isEqualTo("_json");
    assertThat(error.path("eventKvMode").asText()).isEqualTo("json");
    assertThat(http.export(ADMIN, "index=copies sourcetype=plain_summary | table _raw")).isEmpty();
  }

  /**
   * Copied under {@code _json} itself (the same {@code kvMode: json}) the events are written, and
   * the copy reads exactly what they read: the JSON's {@code ua}, no field out of its text.
   */
  @Test
  void jsonEventsCopiedUnderJsonReadAsTheEventsRead() throws Exception {
    HttpResponse<String> copied = search("index=web | collect index=copies sourcetype=_json");
    assertThat(copied.statusCode()).as(copied.body()).isEqualTo(200);
    ArrayNode original = http.export(ADMIN, "index=web | table _raw, ua, count, report");
    ArrayNode back =
        http.export(ADMIN, "index=copies sourcetype=_json | table _raw, ua, count, report");
    assertThat(back).hasSize(original.size());
    for (int i = 0; i < back.size(); i++) {
      assertThat(back.get(i)).as("the copy reads what the event read").isEqualTo(original.get(i));
      assertThat(back.get(i).path("ua").asText()).isEqualTo(LOGGED);
      assertThat(back.get(i).has("report")).as(back.get(i).toString()).isFalse();
      assertThat(back.get(i).has("count")).as(back.get(i).toString()).isFalse();
    }
  }
}
