package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.TestServers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review (session 36): {@code stats … by} an index-time field grouped by segment ordinal over three
 * segments whose dictionaries order the same texts differently, with events lacking the field,
 * multivalue events (Splunk: the event counts in the group of each of its values) and non-ASCII
 * values, then commands after {@code stats} and a search-time filter in front. Expected answers
 * computed here from the events sent, not from Quarry.
 */
class OrdinalGroupingEdgesTest {
  private static final String PASSWORD = "ordinal-edges-password";
  private static final String TOKEN = "ordinal-edges-token";
  private static final long START = 1767780000L;
  private static final int PER_REQUEST = 10_000;
  private static final int REQUESTS = 3;
  private static final int EVENTS = REQUESTS * PER_REQUEST;
  private static final String[] PREFIX = {"m", "c", "x"}; // a text before/after the others

  @TempDir static Path root;
  @AutoClose private static SearchTestServer quarry;

  @BeforeAll
  static void start() throws Exception {
    quarry =
        new SearchTestServer(
            TestServers.startLayouts(root.resolve("data"), PASSWORD, TOKEN, Map.of()), PASSWORD);
    for (int r = 0; r < REQUESTS; r++) {
      for (String index : List.of("ev", "bl")) {
        post(index, r * PER_REQUEST, (r + 1) * PER_REQUEST);
      }
      for (String index : List.of("ev", "bl")) {
        quarry.awaitCount(index, (r + 1) * PER_REQUEST);
      }
    }
  }

  private static String single(int i) {
    // 1,501 values (prime to 5 and 13, so the events that have one use every one): more than
    // 1,024 a segment, so the pages group by entry (EntryPartial)
    int v = i * 7 % 1501;
    int request = i / PER_REQUEST;
    // half the values shared by every segment ("m…"), half the request's own prefix
    return (v % 2 == 0 ? "m" : PREFIX[request]) + "%04d".formatted(v);
  }

  /** Event {@code i}'s sessions: none, one, or two. */
  private static List<String> sessions(int i) {
    if (i % 5 == 1) {
      return List.of();
    }
    if (i % 13 == 0) {
      return List.of("é" + "%03d".formatted(i % 40));
    }
    if (i % 11 == 0 && i >= EVENTS - 1_000) {
      // multivalues in the last request's last blocks only: a block holding one keeps its column in
      // its payload (no ordinals), so the blocks before still group by ordinal
      return List.of(single(i), single(i + 1));
    }
    return List.of(single(i));
  }

  private static long time(int i) {
    return START + i * 2L;
  }

  private static int n(int i) {
    return i * 31 % 101;
  }

  private static void post(String index, int from, int to) throws Exception {
    StringBuilder body = new StringBuilder();
    ObjectMapper json = new ObjectMapper();
    for (int i = from; i < to; i++) {
      List<String> sessions = sessions(i);
      String field =
          switch (sessions.size()) {
            case 0 -> "";
            case 1 -> ",\"session\":" + json.writeValueAsString(sessions.get(0));
            default -> ",\"session\":" + json.writeValueAsString(sessions);
          };
      body.append(
          String.format(
              "{\"time\":%d,\"host\":\"h\",\"sourcetype\":\"edge\",\"index\":\"%s\","
                  + "\"event\":\"event %d n=%d\",\"fields\":{\"level\":\"l%d\"%s}}%n",
              time(i), index, i, n(i), i % 3, field));
    }
    quarry.postEvents(TOKEN, body.toString());
  }

  private static Map<String, String> expected(IntPredicate selected) {
    Map<String, List<Integer>> bySession = new TreeMap<>();
    for (int i = 0; i < EVENTS; i++) {
      if (selected.test(i)) {
        for (String s : sessions(i)) {
          bySession.computeIfAbsent(s, k -> new ArrayList<>()).add(i);
        }
      }
    }
    Map<String, String> rows = new TreeMap<>();
    bySession.forEach(
        (s, events) -> {
          long lo = events.stream().mapToLong(OrdinalGroupingEdgesTest::time).min().orElseThrow();
          long hi = events.stream().mapToLong(OrdinalGroupingEdgesTest::time).max().orElseThrow();
          int max = events.stream().mapToInt(OrdinalGroupingEdgesTest::n).max().orElseThrow();
          rows.put(s, "count=%d d=%d hi=%d".formatted(events.size(), hi - lo, max));
        });
    return rows;
  }

  private static List<JsonNode> results(String search) throws Exception {
    return quarry.results(search);
  }

  private static final String QUERY = "| stats count, range(_time) AS d, max(n) AS hi by session";

  private static Map<String, String> answer(String search) throws Exception {
    return quarry.resultsBy(search, "session", "count", "d", "hi");
  }

  @Test
  void threeSegmentsMultivaluesAndMissingValues() throws Exception {
    Map<String, String> expected = expected(i -> true);
    assertThat(expected).hasSizeGreaterThan(1900);
    assertThat(answer("search index=bl " + QUERY)).isEqualTo(expected);
    assertThat(answer("search index=ev " + QUERY)).isEqualTo(expected);
  }

  @Test
  void aSearchTimeFilterInFront() throws Exception {
    Map<String, String> expected = expected(i -> n(i) > 50);
    assertThat(answer("search index=bl n>50 " + QUERY)).isEqualTo(expected);
  }

  @Test
  void commandsAfterStats() throws Exception {
    Map<String, String> expected = expected(i -> true);
    List<Long> counts =
        expected.values().stream()
            .map(v -> Long.parseLong(v.substring("count=".length(), v.indexOf(' '))))
            .sorted(Comparator.reverseOrder())
            .toList();
    List<JsonNode> top =
        results("search index=bl | stats count by session | sort - count | head 5");
    assertThat(top.stream().map(r -> r.get("count").asLong()).toList())
        .isEqualTo(counts.subList(0, 5));
    long total = counts.stream().mapToLong(Long::longValue).sum();
    List<JsonNode> withTotal =
        results("search index=bl | stats count by session | eventstats sum(count) AS total");
    assertThat(withTotal).hasSize(expected.size());
    assertThat(withTotal.get(0).get("total").asLong()).isEqualTo(total);
  }

  /**
   * Pages are grouped by entry where a segment's dictionary has more than 1,024 values (each
   * segment here more than 1,500 sessions) and not over the same blocks by a field of three values;
   * the event layout never does.
   */
  @Test
  void theSearchStatsCountThePagesGroupedByEntry() throws Exception {
    for (String index : List.of("bl", "ev")) {
      String bySession = "search index=" + index + " " + QUERY;
      SearchStats stats = quarry.run(bySession);
      if (index.equals("bl")) {
        assertThat(stats.pagesByEntry()).as(stats.toString()).isPositive();
      } else {
        assertThat(stats.pagesByEntry()).as(stats.toString()).isZero();
      }
      String byLevel = "search index=" + index + " | stats count, range(_time) AS d by level";
      stats = quarry.run(byLevel);
      assertThat(stats.pagesByEntry()).as(stats.toString()).isZero();
    }
  }

  /**
   * The second segment alone (a dictionary of 1,501 sessions and 40 non-ASCII ones, no multivalue):
   * its groups handed whole to the final aggregation, unhashed; the dictionary's byte order is not
   * the answer's past ASCII, so the answer is sorted — in the order computed here.
   */
  @Test
  void oneSegmentHandedWholeWithTextsBeyondAscii() throws Exception {
    Map<String, String> expected = expected(i -> i >= PER_REQUEST && i < 2 * PER_REQUEST);
    String search =
        "search index=bl earliest="
            + time(PER_REQUEST)
            + " latest="
            + time(2 * PER_REQUEST)
            + " "
            + QUERY;
    SearchStats stats = quarry.run(search);
    assertThat(stats.groupsHandedWhole()).as(stats.toString()).isLessThanOrEqualTo(expected.size());
    assertThat(results(search).stream().map(r -> r.get("session").asText()).toList())
        .containsExactlyElementsOf(expected.keySet());
    assertThat(answer(search)).isEqualTo(expected);
  }

  /**
   * Explain names the fields the run groups by ordinal: not one the filter reads ({@code
   * EventPages.groupByOrdinal} keeps those on page entries) nor a default field (no ordinal
   * column).
   */
  @Test
  void explainNamesOnlyWhatIsGroupedByOrdinal() throws Exception {
    for (String search :
        List.of(
            "search index=bl session=m* | stats range(_time) AS d by session",
            "search index=bl | stats range(_time) AS d by host")) {
      assertThat(quarry.explain(search)).as(search).doesNotContainKey("grouped_by_ordinal");
    }
  }
}
