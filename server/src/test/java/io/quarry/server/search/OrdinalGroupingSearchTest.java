package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.TestServers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stats … by} an index-time keyword field of many values grouped by its segment ordinals
 * (session 36, {@link PageShape#byOrdinal}): once a scan decoded a segment's dictionary of the
 * field whole, the pages hold each event's segment ordinal into it and the aggregation groups by
 * dictionary entry. The answers are checked against a plain Java computation over the events sent
 * (not Quarry's output), over both layouts: two requests of {@value #PER_REQUEST} events, each its
 * own segment, whose dictionaries give the same text different ordinals (the second request's
 * values include texts that sort before the first's); one event in four has no session (no group);
 * a numeric {@code n} and {@code user} come from the text at search time, {@code level} is an
 * index-time field of two values.
 */
class OrdinalGroupingSearchTest {
  private static final String PASSWORD = "ordinal-grouping-password";
  private static final String TOKEN = "ordinal-grouping-token";
  private static final long START = 1767780000L; // 2026-01-07T10:00:00Z
  private static final int PER_REQUEST = 9_000;
  private static final int EVENTS = 2 * PER_REQUEST;

  @TempDir static Path root;
  @AutoClose private static SearchTestServer quarry;

  @BeforeAll
  static void start() throws Exception {
    quarry =
        new SearchTestServer(
            TestServers.startLayouts(root.resolve("data"), PASSWORD, TOKEN, Map.of()), PASSWORD);
    for (int[] request : new int[][] {{0, PER_REQUEST}, {PER_REQUEST, EVENTS}}) {
      for (String index : List.of("ev", "bl")) {
        post(index, request[0], request[1]);
      }
      // each request its own segment: searchable before the next is sent
      for (String index : List.of("ev", "bl")) {
        quarry.awaitCount(index, request[1]);
      }
    }
  }

  /** Event {@code i}'s session, or null (one in four has none). */
  private static String session(int i) {
    if (i % 4 == 1) {
      return null;
    }
    // the first request: b000..b999; the second also a000..a499 (before every b: other ordinals)
    int value = i * 7 % 1500;
    return i < PER_REQUEST
        ? "b%03d".formatted(value % 1000)
        : value < 500 ? "a%03d".formatted(value) : "b%03d".formatted(value - 500);
  }

  private static long time(int i) {
    return START + i * 3L;
  }

  private static int n(int i) {
    return i * 31 % 101;
  }

  private static String user(int i) {
    return i % 3 == 0 ? "alice" : "bob";
  }

  private static String level(int i) {
    return i % 7 == 0 ? "warn" : "info";
  }

  private static void post(String index, int from, int to) throws Exception {
    StringBuilder body = new StringBuilder();
    for (int i = from; i < to; i++) {
      String session = session(i);
      body.append(
          String.format(
              "{\"time\":%d,\"host\":\"h\",\"sourcetype\":\"grp\",\"index\":\"%s\","
                  + "\"event\":\"event %d n=%d user=%s\",\"fields\":{\"level\":\"%s\"%s}}%n",
              time(i),
              index,
              i,
              n(i),
              user(i),
              level(i),
              session == null ? "" : ",\"session\":\"" + session + "\""));
    }
    quarry.postEvents(TOKEN, body.toString());
  }

  /** What {@link #QUERY} answers per session, computed over the events {@code selected} keeps. */
  private static Map<String, String> expected(IntPredicate selected) {
    Map<String, List<Integer>> bySession = new TreeMap<>();
    for (int i = 0; i < EVENTS; i++) {
      if (session(i) != null && selected.test(i)) {
        bySession.computeIfAbsent(session(i), s -> new ArrayList<>()).add(i);
      }
    }
    Map<String, String> rows = new TreeMap<>();
    bySession.forEach(
        (session, events) -> {
          long first =
              events.stream().mapToLong(OrdinalGroupingSearchTest::time).min().orElseThrow();
          long last =
              events.stream().mapToLong(OrdinalGroupingSearchTest::time).max().orElseThrow();
          int latest = events.stream().max((a, b) -> Long.compare(time(a), time(b))).orElseThrow();
          TreeSet<String> levels = new TreeSet<>();
          events.forEach(i -> levels.add(level(i)));
          rows.put(
              session,
              "count=%d d=%d lo=%d hi=%d total=%d levels=%d last=%d"
                  .formatted(
                      events.size(),
                      last - first,
                      events.stream().mapToInt(OrdinalGroupingSearchTest::n).min().orElseThrow(),
                      events.stream().mapToInt(OrdinalGroupingSearchTest::n).max().orElseThrow(),
                      events.stream().mapToInt(OrdinalGroupingSearchTest::n).sum(),
                      levels.size(),
                      n(latest)));
        });
    return rows;
  }

  private static final String QUERY =
      "| stats count, range(_time) AS d, min(n) AS lo, max(n) AS hi, sum(n) AS total,"
          + " dc(level) AS levels, latest(n) AS last by session";

  /** The export's answer of {@code search}, as {@link #expected} writes it per session. */
  private static Map<String, String> answer(String search) throws Exception {
    return quarry.resultsBy(search, "session", "count", "d", "lo", "hi", "total", "levels", "last");
  }

  @Test
  void everyFunctionByTheFieldAnswersAsComputed() throws Exception {
    Map<String, String> expected = expected(i -> true);
    assertThat(expected).hasSizeGreaterThan(1000);
    assertThat(answer("search index=bl " + QUERY)).isEqualTo(expected);
    assertThat(answer("search index=ev " + QUERY)).isEqualTo(expected);
  }

  @Test
  void theIndexHasSeveralSegments() throws Exception {
    for (String index : List.of("ev", "bl")) {
      String query = "search index=" + index + " " + QUERY;
      SearchStats stats = quarry.run(query);
      assertThat(stats.segments()).as(stats.toString()).isGreaterThanOrEqualTo(2);
    }
  }

  @Test
  void theSearchStatsCountThePagesGroupedByOrdinal() throws Exception {
    String grouped = "search index=bl " + QUERY;
    SearchStats stats = quarry.run(grouped);
    assertThat(stats.pagesByOrdinal()).as(stats.toString()).isPositive();
    // the second segment's 1,500 sessions: more than 1,024, so its groups are kept by entry
    assertThat(stats.pagesByEntry()).as(stats.toString()).isPositive();
    assertThat(stats.summary(grouped)).contains(" pages_by_entry=" + stats.pagesByEntry());
    String notGrouped = "search index=bl | eval x=1 | stats count by session";
    stats = quarry.run(notGrouped);
    assertThat(stats.pagesByOrdinal()).as(stats.toString()).isZero();
    assertThat(stats.pagesByEntry()).as(stats.toString()).isZero();
    assertThat(stats.pagesInPlace()).as(stats.toString()).isZero();
    // the first segment's 1,000 sessions: grouped by ordinal, but by text per page
    String small = "search index=bl latest=" + (START + 3L * PER_REQUEST) + " " + QUERY;
    stats = quarry.run(small);
    assertThat(stats.pagesByOrdinal()).as(stats.toString()).isPositive();
    assertThat(stats.pagesByEntry()).as(stats.toString()).isZero();
    assertThat(stats.pagesInPlace()).as(stats.toString()).isZero();
  }

  /**
   * A search of the second segment alone: its threads' partials all hold that one dictionary and
   * merge by entry; the answer is in the natural order and as computed. The event layout (no
   * ordinals) never hands groups over by entry.
   */
  @Test
  void oneSegmentsGroupsAreHandedWholeInOrder() throws Exception {
    Map<String, String> expected = expected(i -> i >= PER_REQUEST);
    for (String index : List.of("bl", "ev")) {
      String search =
          "search index=" + index + " earliest=" + (START + 3L * PER_REQUEST) + " " + QUERY;
      SearchStats stats = quarry.run(search);
      if (index.equals("bl")) {
        // the groups of the pages by entry, each handed over once: unhashed where the keys of the
        // pages read before the dictionary was decoded whole (by text) are few beside them —
        // not here, a dictionary of 1,500 sessions (EntryHandOverSearchTest: 25,000)
        assertThat(stats.groupsHandedWhole())
            .as(stats.toString())
            .isLessThanOrEqualTo(expected.size());
      } else {
        assertThat(stats.groupsHandedWhole()).as(stats.toString()).isZero();
      }
      assertThat(stats.summary(search))
          .contains(" groups_handed_whole=" + stats.groupsHandedWhole());
      List<String> order = new ArrayList<>();
      for (JsonNode result : quarry.results(search)) {
        order.add(result.get("session").asText());
      }
      assertThat(order).as(index).containsExactlyElementsOf(expected.keySet());
      assertThat(answer(search)).as(index).isEqualTo(expected);
    }
  }

  @Test
  void aFilterInFrontAnswersAsComputed() throws Exception {
    Map<String, String> expected = expected(i -> user(i).equals("alice"));
    assertThat(answer("search index=bl user=alice " + QUERY)).isEqualTo(expected);
    assertThat(answer("search index=bl level=warn " + QUERY))
        .isEqualTo(expected(i -> level(i).equals("warn")));
  }

  @Test
  void theRuleShowsInExplain() throws Exception {
    String query = "search index=bl " + QUERY;
    assertThat(quarry.explain(query)).containsEntry("grouped_by_ordinal", List.of("session"));
    // a command in front, a function of the field, two by-fields: the rule does not apply
    for (String other :
        List.of(
            "search index=bl | eval x=1 | stats count by session",
            "search index=bl | stats dc(session) AS s by session",
            "search index=bl | stats count by session, level")) {
      assertThat(quarry.explain(other)).as(other).doesNotContainKey("grouped_by_ordinal");
    }
  }
}
