package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestHttp;
import io.quarry.server.TestServers;
import io.quarry.server.sourcetype.SourcetypeSettings;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review (session 36, review-d) of {@code kvMode}: under every mode, each path a search reads
 * {@code key=value} fields by — the search's filter, {@code search}, {@code where}, {@code stats
 * by}, {@code table}, {@code /api/v1/fields} — reads an event the same way (an event found by
 * {@code user=bob} shows {@code user=bob}, and the reverse), in both layouts; and one event has one
 * reading: a pair that one path reads as inside a quoted value is no field on another. The text
 * {@code msg="hi \" user=bob x=\"" user=alice} reads {@code user=bob} plain ({@code auto}) and not
 * escaped ({@code auto_escaped}); expected by hand.
 */
class KvModeAgreementTest {
  private static final String PASSWORD = "kvmode-review-pw";
  private static final String TOKEN = "kvmode-review-token";
  private static final String ADMIN = TestHttp.basic("admin", PASSWORD);
  private static final int LINES = 40; // per sourcetype and index: a block's texts for KeyPlaces
  private static final List<String> MODES =
      List.of("m_auto", "m_esc", "m_json", "m_none", "m_xml", "m_idx");

  @TempDir static Path root;
  @AutoClose private static QuarryServer server;
  private static TestHttp http;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestServers.startLayouts(
            root.resolve("data"),
            PASSWORD,
            TOKEN,
            Map.of(
                "m_esc", new SourcetypeSettings.Builder().kvMode("auto_escaped").build(),
                "m_json", new SourcetypeSettings.Builder().kvMode("json").build(),
                "m_none", new SourcetypeSettings.Builder().kvMode("none").build(),
                "m_xml", new SourcetypeSettings.Builder().kvMode("xml").build(),
                "m_idx",
                    new SourcetypeSettings.Builder()
                        .indexExtractions(
                            List.of(new SourcetypeSettings.IndexExtractionSettings("kv", null)))
                        .build()));
    http = new TestHttp(server.url());
    for (String index : List.of("ev", "bl")) {
      for (String sourcetype : MODES) {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < LINES; i++) {
          lines.append(
              i % 2 == 0
                  ? "msg=\"hi \\\" user=bob x=\\\"\" user=alice n=" + i + "\n"
                  : "msg=\"p \\\" evil=1 q=\\\"\" n=" + i + "\n");
        }
        HttpResponse<String> loaded =
            TestServers.postRaw(server, TOKEN, sourcetype, index, lines.toString());
        assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
      }
    }
  }

  @Test
  void everyPathReadsUserEqualsBobAlikeUnderEachMode() throws Exception {
    for (String index : List.of("ev", "bl")) {
      for (String sourcetype : MODES) {
        String events = "index=" + index + " sourcetype=" + sourcetype;
        String where = events + " (" + index + ")";
        TreeSet<Integer> filtered = ns(events + " user=bob | table n");
        // by hand: auto reads msg as `hi \` and then user=bob; auto_escaped reads it inside msg;
        // json, xml and none read no pair; m_idx (auto) reads its index-time kv as auto does
        int expected = sourcetype.equals("m_auto") || sourcetype.equals("m_idx") ? LINES / 2 : 0;
        assertThat(filtered).as(where + " filter").hasSize(expected);
        assertThat(ns(events + " | search user=bob | table n"))
            .as(where + " search")
            .isEqualTo(filtered);
        assertThat(ns(events + " | where user=\"bob\" | table n"))
            .as(where + " where")
            .isEqualTo(filtered);
        assertThat(shownWithBob(events)).as(where + " table").isEqualTo(filtered);
        assertThat(statsCount(events + " | stats count by user", "user", "bob"))
            .as(where + " stats by")
            .isEqualTo(filtered.size());
        assertThat(fieldsApiCount(events, "user", "bob"))
            .as(where + " /api/v1/fields")
            .isEqualTo(filtered.size());
      }
    }
  }

  @Test
  void aPairInsideAQuotedValueIsNoFieldOfTheSameEvent() throws Exception {
    for (String index : List.of("ev", "bl")) {
      for (String sourcetype : MODES) {
        String events = "index=" + index + " sourcetype=" + sourcetype;
        // an event's msg holds the text evil=1 only where its quoted value was read escaped; then
        // evil=1 is inside msg, and no path may read it as a field of the same event
        assertThat(
                statsCount(
                    events + " evil=1 | where like(msg, \"%evil=1%\") | stats count", null, null))
            .as(index + " " + sourcetype + ": evil=1 both a field and inside msg")
            .isZero();
      }
    }
  }

  /** The {@code n} of every result row. */
  private static TreeSet<Integer> ns(String query) throws Exception {
    TreeSet<Integer> ns = new TreeSet<>();
    for (JsonNode row : http.export(ADMIN, query)) {
      ns.add(row.path("n").asInt());
    }
    return ns;
  }

  /** The {@code n} of every event whose {@code user} shown by {@code table} holds {@code bob}. */
  private static TreeSet<Integer> shownWithBob(String events) throws Exception {
    TreeSet<Integer> ns = new TreeSet<>();
    for (JsonNode row : http.export(ADMIN, events + " | table n, user")) {
      JsonNode user = row.path("user");
      boolean bob = false;
      if (user.isArray()) {
        for (JsonNode value : user) {
          bob |= value.asText().equals("bob");
        }
      } else {
        bob = user.asText().equals("bob");
      }
      if (bob) {
        ns.add(row.path("n").asInt());
      }
    }
    return ns;
  }

  /** The count of the row whose {@code by} is {@code value} (0 if none); or the only row's. */
  private static long statsCount(String query, String by, String value) throws Exception {
    ArrayNode rows = http.export(ADMIN, query);
    for (JsonNode row : rows) {
      if (by == null || row.path(by).asText().equals(value)) {
        return row.path("count").asLong();
      }
    }
    return 0;
  }

  /** The count {@code /api/v1/fields} gives {@code value} among {@code field}'s top values. */
  private static long fieldsApiCount(String events, String field, String value) throws Exception {
    HttpResponse<String> answer =
        http.send(
            "POST",
            "/api/v1/fields",
            ADMIN,
            "{\"query\": \"" + events + "\", \"maxEvents\": 1000, \"maxValues\": 10}");
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    for (JsonNode summary : TestHttp.json(answer.body()).path("fields")) {
      if (summary.path("name").asText().equals(field)) {
        for (JsonNode top : summary.path("topValues")) {
          if (top.path("value").asText().equals(value)) {
            return top.path("count").asLong();
          }
        }
      }
    }
    return 0;
  }
}
