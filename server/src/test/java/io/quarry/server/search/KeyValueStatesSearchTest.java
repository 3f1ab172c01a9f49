package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stats} of counts and {@code _time} extremes by a key=value field aggregated by the scan
 * itself ({@link KeyValueStates}) on a real server, in both layouts (index {@code ev} one document
 * per event, {@code bl} blocks of events), against counts and times worked out from how the lines
 * were made and against the page path (the same search with a page stage before {@code stats},
 * which the fused path does not take): the key after {@code ?}, after {@code &} and before one, as
 * a suffix of a longer key ({@code xJSESSIONID=}: none), quoted, empty (none), inside another key's
 * value (none), inside a quoted value and then for real, repeated with two values and with one
 * value twice (multivalues: the page path's), a value longer than 16 bytes, a non-ASCII line (the
 * page path's), lines without it; thousands of events over several blocks, some blocks all ASCII
 * and some not, and a time range cutting through blocks. The job's {@code
 * costs.scan.eventsAggregatedByKeyValue} shows where each event was answered, and its {@code
 * keyTablesHandedOnEarly} that tables were handed on beside the scan's last slices.
 */
class KeyValueStatesSearchTest {
  private static final String PASSWORD = "kv-states-pw";
  private static final int LINES = 9_600;
  private static final long MIDNIGHT = 1767225600L; // 2026-01-01T00:00:00Z
  private static final int FROM = 2_345, TO = 6_789; // a range, in seconds after midnight
  private static final String RANGE =
      " earliest=" + (MIDNIGHT + FROM) + " latest=" + (MIDNIGHT + TO);

  @TempDir static Path dataDirectory;
  @AutoClose private static QuarryServer server;
  // by hand: count, least and greatest second, of every key but the one-value-twice lines'
  private static final Map<String, long[]> byKey = new TreeMap<>();
  private static final Map<String, long[]> byKeyInRange = new TreeMap<>();
  private static long fused; // lines the fused path answers: ASCII, at most one value
  private static long fusedInRange;

  private static String line(int i) {
    String time = String.format("2026-01-01 %02d:%02d:%02d ", i / 3600, i / 60 % 60, i % 60);
    int n = i % 23;
    List<String> keys = new ArrayList<>();
    boolean answered = true;
    String text =
        switch (i % 12) {
          case 0 -> {
            keys.add("S" + n);
            yield "GET /account?JSESSIONID=S" + n + " HTTP 1.1";
          }
          case 1 -> {
            keys.add("T" + n);
            yield "GET /a?item=3&JSESSIONID=T" + n + "&x=1";
          }
          case 2 -> "xJSESSIONID=X" + n + " other"; // a longer key
          case 3 -> {
            keys.add("Q " + n);
            yield "JSESSIONID=\"Q " + n + "\" user=u";
          }
          case 4 -> "user=u JSESSIONID= after"; // an empty value: none
          case 5 -> {
            keys.add("M" + n);
            keys.add("N" + n);
            answered = false; // a multivalue: the page path's
            yield "JSESSIONID=M" + n + " JSESSIONID=N" + n;
          }
          case 6 -> {
            keys.add("C" + n);
            answered = false; // past ASCII
            yield "café JSESSIONID=C" + n;
          }
          case 7 -> "a=JSESSIONID=V" + n; // inside a's value: none
          case 8 -> "no key here x=1";
          case 9 -> {
            answered = false; // one value twice: the page path's (not worked out by hand)
            yield "JSESSIONID=D" + n + ",JSESSIONID=D" + n;
          }
          case 10 -> {
            keys.add("R" + n);
            yield "k=\"in JSESSIONID=Z" + n + "\" JSESSIONID=R" + n;
          }
          default -> {
            keys.add("L" + n + "-0123456789abcdef");
            yield "JSESSIONID=L" + n + "-0123456789abcdef;rest";
          }
        };
    boolean inRange = i >= FROM && i <= TO;
    for (String key : keys) {
      add(byKey, key, MIDNIGHT + i);
      if (inRange) {
        add(byKeyInRange, key, MIDNIGHT + i);
      }
    }
    if (answered) {
      fused++;
      fusedInRange += inRange ? 1 : 0;
    }
    return time + text;
  }

  private static void add(Map<String, long[]> into, String key, long second) {
    long[] row = into.computeIfAbsent(key, k -> new long[] {0, Long.MAX_VALUE, Long.MIN_VALUE});
    row[0]++;
    row[1] = Math.min(row[1], second);
    row[2] = Math.max(row[2], second);
  }

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.startLayouts(dataDirectory, PASSWORD, TestServers.TOKEN, Map.of());
    FusedScanFixtures.loadShuffled(
        server, LINES, i -> i % 12 == 6 || i % 5 == 0, 41, KeyValueStatesSearchTest::line);
  }

  private static final String PAGE_STAGE = FusedScanFixtures.PAGE_STAGE; // not fused
  private static final String SESSIONS = " | stats range(_time), count by JSESSIONID";

  private static List<JsonNode> results(String search) throws Exception {
    return EventRunSearchTest.results(server, PASSWORD, search);
  }

  /** Count, least and greatest second per key, from {@code stats count, min, max}'s answer. */
  private static Map<String, long[]> states(String search) throws Exception {
    Map<String, long[]> states = new TreeMap<>();
    for (JsonNode result : results(search)) {
      String key = result.get("JSESSIONID").asText();
      if (!key.startsWith("D")) { // one value twice: compared with the page path only
        states.put(
            key,
            new long[] {
              result.get("count").asLong(),
              result.get("first").asLong(),
              result.get("last").asLong()
            });
      }
    }
    return states;
  }

  private static long handedOnEarly(String search) throws Exception {
    return FusedScanFixtures.scanCount(server, PASSWORD, search, "keyTablesHandedOnEarly");
  }

  private static long aggregatedByKeyValue(String search) throws Exception {
    return FusedScanFixtures.scanCount(server, PASSWORD, search, "eventsAggregatedByKeyValue");
  }

  @Test
  void aggregatesAsTheLinesWereMadeInBothLayouts() throws Exception {
    String minMax =
        " | eval unused=1 | stats count, min(_time) AS first, max(_time) AS last by JSESSIONID";
    for (String index : FusedScanFixtures.LAYOUTS) {
      String fusedSearch =
          "index="
              + index
              + " | stats count, min(_time) AS first, max(_time) AS last by JSESSIONID";
      assertThat(states(fusedSearch)).as(index).usingRecursiveComparison().isEqualTo(byKey);
      assertThat(states("index=" + index + minMax))
          .as(index + ", the page path")
          .usingRecursiveComparison()
          .isEqualTo(byKey);
    }
  }

  @Test
  void answersAsThePagePathDoesInBothLayouts() throws Exception {
    for (String index : FusedScanFixtures.LAYOUTS) {
      for (String stats :
          List.of(
              SESSIONS,
              " | stats count by JSESSIONID",
              " | stats count AS n, range(_time) AS r, max(_time) by JSESSIONID")) {
        List<JsonNode> fusedAnswer = results("index=" + index + stats);
        assertThat(fusedAnswer)
            .as(index + stats)
            .hasSizeGreaterThan(byKey.size())
            .isEqualTo(results("index=" + index + PAGE_STAGE + stats));
      }
    }
  }

  @Test
  void aTimeRangeCuttingThroughBlocksAggregatesOnlyItsEvents() throws Exception {
    String stats = " | stats count, min(_time) AS first, max(_time) AS last by JSESSIONID";
    for (String index : FusedScanFixtures.LAYOUTS) {
      assertThat(states("index=" + index + RANGE + stats))
          .as(index)
          .usingRecursiveComparison()
          .isEqualTo(byKeyInRange);
      assertThat(aggregatedByKeyValue("index=" + index + RANGE + stats))
          .as(index)
          .isEqualTo(fusedInRange);
    }
  }

  @Test
  void theScanAggregatesExactlyWhereThePlanSays() throws Exception {
    for (String index : FusedScanFixtures.LAYOUTS) {
      String search = "index=" + index + SESSIONS;
      // every ASCII line with at most one value: the others went to the page source
      assertThat(aggregatedByKeyValue(search)).as(index).isEqualTo(fused);
      assertThat(aggregatedByKeyValue("index=" + index + PAGE_STAGE + SESSIONS)).isZero();
      // the last-started slice's table at least is handed on beside the scan, once no slice is
      // left to start (ScanSlice.noSliceLeft → KeyStateTables.handOnIdle), not at the drain after
      assertThat(handedOnEarly(search)).as(index + ": tables handed on early").isPositive();
      assertThat(handedOnEarly("index=" + index + PAGE_STAGE + SESSIONS)).isZero();
      assertThat(aggregatedByKeyValue("index=" + index + " | stats dc(_time) by JSESSIONID"))
          .isZero();
      // a search-time field's comparison, which each event's page checks: not fused
      assertThat(aggregatedByKeyValue("index=" + index + " x=1" + SESSIONS))
          .as("a per-event filter reads pages")
          .isZero();
      // a word the term index answers alone (one document per event): its events fused; in
      // blocks each event's text is checked for it, on pages
      assertThat(aggregatedByKeyValue("index=" + index + " other" + SESSIONS))
          .isEqualTo(index.equals("ev") ? LINES / 12 : 0);
      assertThat(server.search().explain(server.search().plan(search, null, null)))
          .containsEntry("aggregated_by_key_value", "JSESSIONID");
      assertThat(
              server
                  .search()
                  .explain(
                      server.search().plan("index=" + index + PAGE_STAGE + SESSIONS, null, null)))
          .doesNotContainKey("aggregated_by_key_value");
    }
  }
}
