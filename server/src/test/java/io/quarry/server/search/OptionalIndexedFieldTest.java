package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index-time field some events lack (session 33): a block holds it by its values and its codes
 * with "no value" when no text of an event without it mentions it — searches over the block layout
 * answer as over the event layout (an event without the field has none, unless its text gives one
 * at search time: such a text keeps its block's column in the payload), and a search reading only
 * that field reads no journal block.
 */
class OptionalIndexedFieldTest {
  private static final String PASSWORD = "optional-field-password";
  private static final String TOKEN = "optional-field-token";
  private static final long START = 1767780000L; // 2026-01-07T10:00:00Z

  @TempDir static Path root;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.startLayouts(root.resolve("data"), PASSWORD, TOKEN, Map.of());
    for (String index : List.of("ev", "bl")) {
      for (int from = 0; from < 2000; from += 250) { // a block per request at most
        post(index, from, from + 250);
      }
    }
  }

  /**
   * Event {@code i} has index-time {@code session} s(i mod 37) in three of four events, {@code
   * level} in all; in the last request, one event without {@code session} says {@code session=zzz}
   * in its text (search-time key=value gives it there).
   */
  private static void post(String index, int from, int to) throws Exception {
    StringBuilder body = new StringBuilder();
    for (int i = from; i < to; i++) {
      boolean has = i % 4 != 1;
      String text = i == 1801 ? "event " + i + " session=zzz" : "event " + i + " GET /x";
      body.append(
          String.format(
              "{\"time\":%d,\"host\":\"h\",\"sourcetype\":\"opt\",\"index\":\"%s\","
                  + "\"event\":\"%s\",\"fields\":{\"level\":\"%s\"%s}}%n",
              START + i * 7L,
              index,
              text,
              i % 3 == 0 ? "warn" : "info",
              has ? ",\"session\":\"s" + (i % 37) + "\"" : ""));
    }
    TestServers.postEvents(server, TOKEN, body.toString());
  }

  private static String search(String query) throws Exception {
    HttpResponse<String> response = TestServers.export(server, PASSWORD, query);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return response.body();
  }

  private static SearchStats stats(String query) throws Exception {
    return server.search().run(query, server.search().plan(query, null, null), page -> {});
  }

  @Test
  void blocksAnswerAsEvents() throws Exception {
    for (String search :
        List.of(
            "| stats range(_time) AS d, count by session",
            "| stats count by session",
            "| stats count(session) AS c, dc(session) AS d, count",
            "| timechart span=1h count by session",
            "| where isnull(session) | stats count by level",
            "| stats count by level, session",
            "session=s3 | stats count by level",
            "| eval s=coalesce(session, \"none\") | stats count by s",
            "| table _time session level | head 40")) {
      String events = search("search index=ev " + search);
      assertThat(events).as(search).contains("result");
      assertThat(search("search index=bl " + search)).as(search).isEqualTo(events);
    }
    // the event whose text gives session at search time counts under zzz in both layouts
    assertThat(search("search index=bl | stats count by session")).contains("zzz");
    // 1,500 events have the index-time field, one more gets it at search time
    assertThat(search("search index=bl | stats count(session) AS c")).contains("\"1501\"");
  }

  @Test
  void readingTheFieldReadsNoText() throws Exception {
    String notTheLast = "latest=" + (START + 1750 * 7L) + " "; // the last request's texts aside
    for (String search :
        List.of(
            "| stats dc(session)",
            "| eval s=session | stats count by s",
            "| stats count by session",
            "| where isnull(session) | stats count")) {
      SearchStats read = stats("search index=bl " + notTheLast + search);
      assertThat(read.scanCosts().journalBlocks()).as(search).isZero();
    }
  }

  /**
   * With {@code _time} beside the field, each block goes as one run: the field from its ordinals
   * and "no value" codes — no event made one by one (before session 34, every event). The seven
   * small block documents share one journal block, decoded once for their times (a prefix read is
   * for a journal block's sole document: {@code PrefixTimesSearchTest} has those).
   */
  @Test
  void aRangeByTheFieldGoesByRun() throws Exception {
    String notTheLast = "latest=" + (START + 1750 * 7L) + " ";
    SearchStats read =
        stats("search index=bl " + notTheLast + "| stats range(_time) AS d, count by session");
    assertThat(read.eventsByRun()).as(read.toString()).isEqualTo(1750);
    assertThat(read.scanCosts().journalBlocks()).as(read.toString()).isEqualTo(1);
  }
}
