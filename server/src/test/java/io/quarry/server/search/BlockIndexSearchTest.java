package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every search path that counts or skips from the index instead of reading events — {@code stats
 * count} up front, the sure part, keyword doc-values counts ({@code stats count by f}, {@code top
 * f}), timed counts ({@code timechart count by f}), the {@code dedup} skip, {@code head} — gives
 * the same answer over an index stored as blocks ({@code format: blocks}) as over the same events
 * stored one per document, on one real server: the event index is the reference, its own paths
 * pinned by {@code KeywordCountShortcutTest} and {@code WholeSegmentCountTest}.
 */
class BlockIndexSearchTest {
  private static final String PASSWORD = "block-search-password";
  private static final String TOKEN = "block-token";

  @TempDir static Path root;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestServers.startLayouts(
            root.resolve("data"), PASSWORD, TOKEN, CountingEvents.shopSourcetype());
    String shop = CountingEvents.shopLines();
    String access = CountingEvents.accessLines();
    // events without a single term: one token longer than the tokenizer keeps, or punctuation
    String noTerms =
        "a".repeat(300) + "\n" + "b".repeat(5000) + "\n" + "x " + "c".repeat(300) + "\n";
    for (String index : List.of("ev", "bl")) {
      post(index, "shop", shop);
      post(index, "access_combined", access);
      post(index, "long", noTerms);
    }
  }

  private static void post(String index, String sourcetype, String body) throws Exception {
    HttpResponse<String> response = TestServers.postRaw(server, TOKEN, sourcetype, index, body);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
  }

  private static String search(String query) throws Exception {
    return TestServers.exportOk(server, PASSWORD, query);
  }

  @Test
  void blocksAnswerAsEventsDo() throws Exception {
    List<String> searches =
        List.of(
            "| stats count",
            "earliest=1767780300 latest=1767780600 | stats count",
            "sourcetype=access_combined status=404 | stats count",
            "sourcetype=access_combined 404 | stats count",
            "sourcetype=access_combined NOT status=200 | stats count by status",
            "sourcetype=access_combined status>=500 | stats count by clientip",
            "sourcetype=access_combined | top clientip",
            "sourcetype=access_combined | timechart span=5m count by status",
            "sourcetype=access_combined | head 5 | table _time clientip status",
            "sourcetype=access_combined | dedup clientip | table clientip",
            "sourcetype=access_combined earliest=1767780300 latest=1767780600"
                + " | stats count by status",
            "sourcetype=shop | stats count by user",
            "sourcetype=shop | top user",
            "sourcetype=shop user=u3 | stats count",
            "sourcetype=shop (user=u1 OR user=u2) | stats count by user",
            "sourcetype=shop | dedup user | table user | sort user",
            // a bare * matches every event, those whose text holds no term too
            "* | stats count",
            "sourcetype=long * | eval l=len(_raw) | stats count by l",
            "sourcetype=long | eval l=len(_raw) | stats count by l",
            "sourcetype=long x | stats count");
    for (String search : searches) {
      String events = search("search index=ev " + search);
      assertThat(events).as(search).contains("result");
      assertThat(search("search index=bl " + search)).as(search).isEqualTo(events);
    }
  }

  @Test
  void theExplainSaysEveryEventIsChecked() throws Exception {
    String plan =
        server
            .search()
            .explain(
                server.search().plan("index=bl sourcetype=shop user=u3 | stats count", null, null))
            .toString();
    assertThat(plan).contains("exact_index_query=false").contains("per_event_filter=");
  }

  @Test
  void countingSearchesOverBlocksCountFromBlockValuesOrRunOnPages() {
    // a filter the blocks' value counts decide (none here): counted from them on the index path
    for (String search :
        List.of("| stats count by host", "| top clientip", "| timechart count by host")) {
      assertThat(explain("index=bl " + search))
          .as(search)
          .containsEntry("engine", "index")
          .containsEntry("counted_from_block_values", true);
      assertThat(explain("index=ev " + search)).as(search).containsEntry("engine", "index");
    }
    // one they cannot (a bare term): a block segment offers no per-event counting shortcut, so the
    // index path would read every event as a row; pages instead
    // and so does a count by a field no block holds counts of: search-time (action=view), or
    // index-time but missing in some event of every block (user)
    for (String search :
        List.of(
            "404 | stats count by host",
            "curl | top user",
            "| stats count by action",
            "| top user")) {
      assertThat(explain("index=bl " + search)).as(search).containsEntry("engine", "pages");
    }
  }

  private static java.util.Map<String, Object> explain(String query) {
    return server.search().explain(server.search().plan(query, null, null));
  }
}
