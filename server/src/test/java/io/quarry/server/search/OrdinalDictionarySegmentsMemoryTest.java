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
 * Review (session 36): the whole dictionaries a {@code stats … by} grouped by ordinal makes ({@link
 * SegmentDictionaryBlocks}) are kept, and charged, until the search ends: their sum over every
 * segment the search scans, not the one a slice reads. Index {@code one} holds {@value #PER}
 * events, index {@code four} as many in each of at least {@value #SEGMENTS} segments; every event
 * its own 40-byte {@code session} (index-time), one in eight {@code level=warn} (3,000 a request:
 * the dictionary is decoded in a segment's first page, its next pages group by ordinal). One
 * segment's dictionary (24,000 values, ~3.6 MB charged) fits the limit of {@value #LIMIT} bytes;
 * the same search over {@code four} (12,000 small groups, one segment's dictionary read at a time)
 * fails with 422 {@code MEMORY_LIMIT} once the kept dictionaries add up — on main it answers.
 */
class OrdinalDictionarySegmentsMemoryTest {
  private static final String PASSWORD = "dictionary-segments-password";
  private static final String TOKEN = "dictionary-segments-token";
  private static final long LIMIT = 8L << 20;
  private static final int PER = 24_000;
  private static final int SEGMENTS = 4;

  @TempDir static Path root;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestServers.startIndexes(
            root.resolve("data"),
            PASSWORD,
            TOKEN,
            List.of("one", "four"),
            TestServers.storage(Map.of("one", "blocks", "four", "blocks")),
            settings -> settings.put("search.maxMemoryBytes", LIMIT));
    post("one", 0);
    awaitCount("one", PER);
    for (int segment = 0; segment < SEGMENTS; segment++) {
      post("four", segment);
      awaitCount("four", (segment + 1) * PER); // searchable before the next: its own segment
    }
  }

  private static void post(String index, int segment) throws Exception {
    TestServers.postEvents(server, TOKEN, SessionEvents.envelopes(index, segment * PER, PER, 8));
  }

  private static void awaitCount(String index, int count) throws Exception {
    TestServers.awaitCount(server, PASSWORD, index, count, 400);
  }

  @Test
  void fourHasAtLeastFourSegments() throws Exception {
    for (String index : List.of("one", "four")) {
      // by level (two values: its dictionary is never decoded whole), so nothing is charged
      String query = "search index=" + index + " level=warn | stats range(_time) AS d by level";
      SearchStats stats =
          server.search().run(query, server.search().plan(query, null, null), page -> {});
      assertThat(stats.segments())
          .as(stats.toString())
          .isGreaterThanOrEqualTo(index.equals("one") ? 1 : SEGMENTS);
    }
  }

  @Test
  void oneSegmentsDictionaryFits() throws Exception {
    HttpResponse<String> one =
        TestServers.export(
            server,
            PASSWORD,
            "search index=one level=warn | stats range(_time) AS d, count by session");
    assertThat(one.statusCode()).as(one.body()).isEqualTo(200);
    assertThat(one.body().split("\"count\":\"1\"", -1)).hasSize(PER / 8 + 1);
  }

  @Test
  void fourSegmentsEachFittingAnswerToo() throws Exception {
    HttpResponse<String> four =
        TestServers.export(
            server,
            PASSWORD,
            "search index=four level=warn | stats range(_time) AS d, count by session");
    assertThat(four.statusCode()).as(four.body()).isEqualTo(200);
    assertThat(four.body().split("\"count\":\"1\"", -1)).hasSize(SEGMENTS * PER / 8 + 1);
  }
}
