package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.TestServers;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness's {@code sessions_range_indexed} shape ({@code stats range(_time), count by} an
 * index-time keyword field of many values, one event in four without it, grouped by segment
 * ordinal) over a segment of blocks cut into several slices of the parallel scan (issue 21, lane
 * idx45): index {@code one} holds {@value #EVENTS} events in one segment of {@value #BLOCK_EVENTS}
 * events a block — more block documents than a slice takes ({@code ParallelScan.SLICE_BLOCKS}), so
 * its slices run on the search pool's threads with a partial each — and index {@code three} the
 * same events in three segments. Both answer what a plain Java computation over the events sent
 * answers (not Quarry's output), also under a time range that cuts blocks; and the one-segment
 * search did read its segment through several slices (the job's {@code sharedMatchSlices}: the
 * slices that shared the segment's candidate blocks), so the answer checked is the split one.
 */
class IndexedSessionsSlicesTest {
  private static final String PASSWORD = "indexed-sessions-slices-password";
  private static final String TOKEN = "indexed-sessions-slices-token";
  private static final long START = 1767780000L; // 2026-01-07T10:00:00Z
  private static final int BLOCK_EVENTS = 8;
  private static final int EVENTS = 6_000; // 750 blocks: 6 slices of 128

  @TempDir static Path root;
  @AutoClose private static SearchTestServer quarry;

  @BeforeAll
  static void start() throws Exception {
    quarry =
        SearchTestServer.start(
            root,
            PASSWORD,
            settings ->
                TestServers.indexes(settings, TOKEN, List.of("one", "three"))
                    .put("storage.blockEvents", BLOCK_EVENTS));
    post("one", 0, EVENTS);
    quarry.awaitCount("one", EVENTS);
    int third = EVENTS / 3;
    for (int to = third; to <= EVENTS; to += third) {
      post("three", to - third, to); // each request its own segment, searchable before the next
      quarry.awaitCount("three", to);
    }
  }

  /** Event {@code i}'s session, or null (one in four has none): 1,275 sessions, out of order. */
  private static String session(int i) {
    return i % 4 == 1 ? null : "s%04d".formatted(i * 37 % 1700);
  }

  private static long time(int i) {
    return START + i;
  }

  private static void post(String index, int from, int to) throws Exception {
    StringBuilder body = new StringBuilder();
    for (int i = from; i < to; i++) {
      String session = session(i);
      body.append(
          String.format(
              "{\"time\":%d,\"host\":\"h\",\"sourcetype\":\"web\",\"index\":\"%s\","
                  + "\"event\":\"GET /p%d\"%s}%n",
              time(i),
              index,
              i % 13,
              session == null ? "" : ",\"fields\":{\"session\":\"" + session + "\"}"));
    }
    quarry.postEvents(TOKEN, body.toString());
  }

  /** Each session's {@code d} and {@code count} over the events {@code selected} keeps. */
  private static Map<String, String> expected(IntPredicate selected) {
    Map<String, long[]> bySession = new TreeMap<>(); // first, last, count
    for (int i = 0; i < EVENTS; i++) {
      if (session(i) != null && selected.test(i)) {
        long[] state =
            bySession.computeIfAbsent(
                session(i), s -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE, 0});
        state[0] = Math.min(state[0], time(i));
        state[1] = Math.max(state[1], time(i));
        state[2]++;
      }
    }
    Map<String, String> rows = new TreeMap<>();
    bySession.forEach((s, state) -> rows.put(s, "d=" + (state[1] - state[0]) + " n=" + state[2]));
    return rows;
  }

  private static final String QUERY = "| stats range(_time) AS d, count AS n by session";

  /** The export's answer of {@code search}, as {@link #expected} writes it per session. */
  private static Map<String, String> answer(String search) throws Exception {
    return quarry.resultsBy(search, "session", "d", "n");
  }

  @Test
  void oneSegmentReadThroughSeveralSlicesAnswersAsComputed() throws Exception {
    String query = "search index=one " + QUERY;
    SearchStats stats = quarry.run(query);
    assertThat(stats.segments()).as(stats.toString()).isEqualTo(1);
    assertThat(stats.summary(query))
        .as(stats.toString())
        .containsPattern(" shared_match_slices=[2-9]");
    assertThat(stats.pagesByOrdinal()).as(stats.toString()).isPositive();
    Map<String, String> expected = expected(i -> true);
    assertThat(expected).hasSizeGreaterThan(1000);
    assertThat(answer(query)).isEqualTo(expected);
  }

  @Test
  void severalSegmentsAnswerAsOne() throws Exception {
    String query = "search index=three " + QUERY;
    assertThat(quarry.run(query).segments()).isEqualTo(3);
    assertThat(answer(query)).isEqualTo(expected(i -> true));
  }

  @Test
  void aTimeRangeCuttingBlocksAnswersAsComputed() throws Exception {
    // from the middle of a block to the middle of another, several slices apart
    int from = 1_000 + 3;
    int to = 5_000 + 5;
    String range = " earliest=" + time(from) + " latest=" + time(to) + " ";
    Map<String, String> expected = expected(i -> i >= from && i < to);
    assertThat(answer("search index=one" + range + QUERY)).isEqualTo(expected);
    assertThat(answer("search index=three" + range + QUERY)).isEqualTo(expected);
  }
}
