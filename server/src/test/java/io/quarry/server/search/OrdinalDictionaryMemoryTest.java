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
 * A segment's whole dictionary that a {@code stats … by} groups by ordinal ({@link
 * SegmentDictionaryBlocks}) is charged to the search's memory: {@value #EVENTS} events, each its
 * own 40-byte {@code session} (an index-time field), one in twenty {@code level=warn}. Counting the
 * warn events by session holds 2,000 groups (well under the limit of {@value #LIMIT} bytes) but
 * decodes the segment's 40,000 values (~6 MB with their block): over the blocks that block's charge
 * is refused and the search answers all the same, on per-page dictionaries (it failed with 422
 * before session 36's review), as over the event layout, which makes no such block.
 */
class OrdinalDictionaryMemoryTest {
  private static final String PASSWORD = "dictionary-memory-password";
  private static final String TOKEN = "dictionary-memory-token";
  private static final long LIMIT = 2L << 20;
  private static final int EVENTS = 40_000;

  @TempDir static Path root;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestServers.startLayouts(
            root.resolve("data"),
            PASSWORD,
            TOKEN,
            settings -> settings.put("search.maxMemoryBytes", LIMIT));
    for (String index : List.of("ev", "bl")) {
      TestServers.postEvents(server, TOKEN, SessionEvents.envelopes(index, 0, EVENTS, 20));
    }
  }

  @Test
  void aDictionaryOverTheLimitLeavesTheSearchOnPerPageDictionaries() throws Exception {
    String query =
        " level=warn | stats range(_time) AS d, count by session"; // not counted by the index
    HttpResponse<String> events = TestServers.export(server, PASSWORD, "search index=ev" + query);
    assertThat(events.statusCode()).as(events.body()).isEqualTo(200);
    assertThat(events.body().split("\"count\":\"1\"", -1)).hasSize(EVENTS / 20 + 1);
    HttpResponse<String> blocks = TestServers.export(server, PASSWORD, "search index=bl" + query);
    assertThat(blocks.statusCode()).as(blocks.body()).isEqualTo(200);
    assertThat(blocks.body()).isEqualTo(events.body());
    // the next search, over the same blocks
    HttpResponse<String> next =
        TestServers.export(server, PASSWORD, "search index=bl level=warn | stats count");
    assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
    assertThat(next.body()).contains("\"count\":\"" + EVENTS / 20 + "\"");
  }
}
