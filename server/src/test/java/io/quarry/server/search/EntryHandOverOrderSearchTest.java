package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review (session 38, lane handover): {@code stats … by} an index-time field of more than 1,024
 * values a segment, so the blocks layout groups by dictionary entry and, at the end, hands one
 * dictionary's groups to the empty final aggregation whole (their texts unhashed, the dictionary's
 * byte order taken as the answer's order when it is the natural one). Checked in the answer's exact
 * row order — not as a map — against a hand computation and against the events layout: one segment
 * whose byte order is the natural order (capitals and digits after a letter), and two segments
 * whose dictionaries differ and whose byte order is not the natural one (lower and upper case,
 * {@code _}/{@code [}, numbers, non-ASCII). The natural order is written here: numbers first by
 * value, then texts case-insensitively, then exactly (Splunk's {@code stats} output order).
 */
class EntryHandOverOrderSearchTest {
  private static final String PASSWORD = "hand-over-order-password";
  private static final String TOKEN = "hand-over-order-token";
  private static final long START = 1767780000L;
  private static final int ONE = 8_000; // events of the one-segment indexes
  private static final int PER_REQUEST = 6_000; // events of each of the two-segment indexes' two
  private static final String ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

  @TempDir static Path root;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestServers.startIndexes(
            root.resolve("data"),
            PASSWORD,
            TOKEN,
            List.of("ev", "bl", "ev2", "bl2"),
            TestServers.storage(
                Map.of("ev", "events", "bl", "blocks", "ev2", "events", "bl2", "blocks")),
            settings -> settings);
    for (String index : List.of("ev", "bl")) {
      post(index, 0, ONE, EntryHandOverOrderSearchTest::upper);
    }
    waitFor("ev", ONE);
    waitFor("bl", ONE);
    for (int r = 0; r < 2; r++) {
      for (String index : List.of("ev2", "bl2")) {
        post(index, r * PER_REQUEST, (r + 1) * PER_REQUEST, EntryHandOverOrderSearchTest::mixed);
      }
      waitFor("ev2", (r + 1) * PER_REQUEST);
      waitFor("bl2", (r + 1) * PER_REQUEST);
    }
  }

  private static void waitFor(String index, int events) throws Exception {
    TestServers.awaitCount(server, PASSWORD, index, events, 400);
  }

  /**
   * The one-segment indexes' session of event {@code i}: K and three of 0-9A-Z; none for 1 in 9.
   */
  private static String upper(int i) {
    if (i % 9 == 4) {
      return null;
    }
    int v = i * 7 % 1_700;
    return "K"
        + ALPHABET.charAt(v / 36 / 36 % 36)
        + ALPHABET.charAt(v / 36 % 36)
        + ALPHABET.charAt(v % 36);
  }

  private static final List<String> ODD =
      List.of("10", "9", "-3", "0.5", "Ab", "ab", "aB", "_x", "[y", "zZ", "Zz", "é1", "e2", "E1");

  /**
   * The two-segment indexes' session of event {@code i}: lower and upper case alike but for case,
   * numbers, {@code _} and {@code [} (between capitals and small letters in bytes), non-ASCII; the
   * second request's values partly its own (another dictionary). None for 1 in 7.
   */
  private static String mixed(int i) {
    if (i % 7 == 3) {
      return null;
    }
    if (i % 23 == 0) {
      return ODD.get(i / 23 % ODD.size());
    }
    int v = i * 11 % 1_300;
    String body = "%04d".formatted(v);
    String head = v % 3 == 0 ? "s" : v % 3 == 1 ? "S" : "s_";
    return (i >= PER_REQUEST && v % 2 == 0 ? "t" : head) + body;
  }

  private static long time(int i) {
    return START + i * 2L;
  }

  private static int n(int i) {
    return i * 31 % 101;
  }

  private static void post(
      String index, int from, int to, java.util.function.IntFunction<String> session)
      throws Exception {
    StringBuilder body = new StringBuilder();
    ObjectMapper json = new ObjectMapper();
    for (int i = from; i < to; i++) {
      String s = session.apply(i);
      body.append(
          String.format(
              "{\"time\":%d,\"host\":\"h\",\"sourcetype\":\"hand\",\"index\":\"%s\","
                  + "\"event\":\"event %d n=%d\",\"fields\":{\"level\":\"l%d\"%s}}%n",
              time(i),
              index,
              i,
              n(i),
              i % 3,
              s == null ? "" : ",\"session\":" + json.writeValueAsString(s)));
    }
    TestServers.postEvents(server, TOKEN, body.toString());
  }

  /** Splunk's order of {@code stats} groups, written here: numbers by value, then texts. */
  static final Comparator<String> NATURAL =
      (a, b) -> {
        Double x = number(a);
        Double y = number(b);
        if (x != null && y != null) {
          return Double.compare(x, y);
        }
        if (x != null || y != null) {
          return x != null ? -1 : 1;
        }
        int folded =
            a.toLowerCase(java.util.Locale.ROOT).compareTo(b.toLowerCase(java.util.Locale.ROOT));
        return folded != 0 ? folded : a.compareTo(b);
      };

  private static Double number(String text) {
    return text.matches("[+-]?[0-9]+(\\.[0-9]+)?") ? Double.valueOf(text) : null;
  }

  private static final String QUERY =
      "| stats count, min(n) AS lo, max(n) AS hi, sum(n) AS s, dc(n) AS k, range(_time) AS d,"
          + " earliest(n) AS e, latest(n) AS l, first(n) AS fi, last(n) AS la, median(n) AS med,"
          + " values(level) AS lv, list(level) AS li by session";

  /** Per session in the natural order, what the query's order-free functions answer. */
  private static LinkedHashMap<String, String> expected(
      int events, java.util.function.IntFunction<String> session) {
    Map<String, List<Integer>> bySession = new TreeMap<>(NATURAL);
    for (int i = 0; i < events; i++) {
      String s = session.apply(i);
      if (s != null) {
        bySession.computeIfAbsent(s, k -> new ArrayList<>()).add(i);
      }
    }
    LinkedHashMap<String, String> rows = new LinkedHashMap<>();
    bySession.forEach(
        (s, list) -> {
          int oldest = list.stream().min(Comparator.comparingLong(i -> time(i))).orElseThrow();
          int newest = list.stream().max(Comparator.comparingLong(i -> time(i))).orElseThrow();
          int[] ns = list.stream().mapToInt(EntryHandOverOrderSearchTest::n).sorted().toArray();
          double median =
              ns.length % 2 == 1
                  ? ns[ns.length / 2]
                  : (ns[ns.length / 2 - 1] + ns[ns.length / 2]) / 2.0;
          java.util.TreeSet<String> levels = new java.util.TreeSet<>();
          list.forEach(i -> levels.add("l" + i % 3));
          rows.put(
              s,
              "count=%d lo=%d hi=%d s=%d k=%d d=%d e=%d l=%d fi=%d la=%d med=%s lv=%s li=%d"
                  .formatted(
                      list.size(),
                      ns[0],
                      ns[ns.length - 1],
                      java.util.Arrays.stream(ns).sum(),
                      java.util.Arrays.stream(ns).distinct().count(),
                      time(newest) - time(oldest),
                      n(oldest),
                      n(newest),
                      n(newest),
                      n(oldest),
                      median,
                      levels,
                      Math.min(list.size(), 100)));
        });
    return rows;
  }

  private static List<JsonNode> results(String search) throws Exception {
    return TestServers.exportRows(server, PASSWORD, search);
  }

  private static List<String> list(JsonNode node) {
    List<String> values = new ArrayList<>();
    if (node == null) {
      return values;
    }
    if (node.isArray()) {
      node.forEach(v -> values.add(v.asText()));
    } else {
      values.add(node.asText());
    }
    return values;
  }

  /** The answer in its row order, each row as {@link #expected} writes it. */
  private static LinkedHashMap<String, String> answer(String search) throws Exception {
    LinkedHashMap<String, String> rows = new LinkedHashMap<>();
    for (JsonNode r : results(search)) {
      String previous =
          rows.put(
              r.get("session").asText(),
              "count=%s lo=%s hi=%s s=%s k=%s d=%s e=%s l=%s fi=%s la=%s med=%s lv=%s li=%d"
                  .formatted(
                      r.get("count").asText(),
                      r.get("lo").asText(),
                      r.get("hi").asText(),
                      r.get("s").asText(),
                      r.get("k").asText(),
                      r.get("d").asText(),
                      r.get("e").asText(),
                      r.get("l").asText(),
                      r.get("fi").asText(),
                      r.get("la").asText(),
                      Double.parseDouble(r.get("med").asText()),
                      new java.util.TreeSet<>(list(r.get("lv"))),
                      list(r.get("li")).size()));
      assertThat(previous).as("session %s answered twice", r.get("session")).isNull();
    }
    return rows;
  }

  private static void assertInOrder(
      LinkedHashMap<String, String> answer, LinkedHashMap<String, String> expected, String what) {
    assertThat(List.copyOf(answer.keySet()))
        .as(what + ": the rows' order")
        .isEqualTo(List.copyOf(expected.keySet()));
    assertThat(answer).as(what).containsExactlyEntriesOf(expected);
  }

  @Test
  void oneSegmentWhoseByteOrderIsTheNaturalOrder() throws Exception {
    LinkedHashMap<String, String> expected = expected(ONE, EntryHandOverOrderSearchTest::upper);
    assertThat(expected).hasSizeGreaterThan(1_500);
    assertInOrder(answer("search index=bl " + QUERY), expected, "blocks");
    assertInOrder(answer("search index=ev " + QUERY), expected, "events");
  }

  @Test
  void twoSegmentsWhoseByteOrderIsNotTheNaturalOrder() throws Exception {
    LinkedHashMap<String, String> expected =
        expected(2 * PER_REQUEST, EntryHandOverOrderSearchTest::mixed);
    assertThat(expected).hasSizeGreaterThan(1_100);
    assertInOrder(answer("search index=bl2 " + QUERY), expected, "blocks");
    assertInOrder(answer("search index=ev2 " + QUERY), expected, "events");
  }

  /** The same answers, row for row, with a filter in front and commands after. */
  @Test
  void aFilterInFrontAndASortAfter() throws Exception {
    for (String index : List.of("bl", "bl2")) {
      String events = index.equals("bl") ? "ev" : "ev2";
      String tail = "| stats count, range(_time) AS d by session | sort - count | head 20";
      assertThat(TestServers.exportOk(server, PASSWORD, "search index=" + index + " " + tail))
          .as(index)
          .isEqualTo(TestServers.exportOk(server, PASSWORD, "search index=" + events + " " + tail));
      String filtered = "level=l1 " + QUERY;
      assertThat(answer("search index=" + index + " " + filtered))
          .as(index)
          .containsExactlyEntriesOf(answer("search index=" + events + " " + filtered));
    }
  }

  /** Pages grouped by entry in the blocks layout (the path under review), never in events. */
  @Test
  void theBlocksLayoutGroupsByEntry() throws Exception {
    for (String index : List.of("bl", "bl2", "ev", "ev2")) {
      String search = "search index=" + index + " " + QUERY;
      SearchStats stats =
          server.search().run(search, server.search().plan(search, null, null), page -> {});
      if (index.startsWith("bl")) {
        assertThat(stats.pagesByEntry()).as(stats.toString()).isPositive();
      } else {
        assertThat(stats.pagesByEntry()).as(stats.toString()).isZero();
      }
    }
  }
}
