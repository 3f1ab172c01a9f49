package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * {@code stats … by} an index-time field over one segment whose dictionary is large beside a page
 * (over 20,000 of {@value #SESSIONS} sessions met in {@value #EVENTS} events, one request: one
 * segment): the pages a slice reads before the segment's dictionary is decoded whole group by text,
 * the rest by entry, and the final aggregation takes the entries' groups beside those few keys
 * unhashed ({@code SortedEntries.handBeside}: each key found among the sorted entries) — {@code
 * groups_handed_whole} counts them — answering in the dictionary's order, the natural one here.
 * Expected answers computed here from the events sent, not from Quarry; the event layout (no
 * ordinals) as well.
 */
class EntryHandOverSearchTest {
  private static final String PASSWORD = "entry-hand-over-password";
  private static final String TOKEN = "entry-hand-over-token";
  private static final long START = 1767780000L;
  private static final int EVENTS = 30_000;
  private static final int SESSIONS = 25_000;

  @TempDir static Path root;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.startLayouts(root.resolve("data"), PASSWORD, TOKEN, Map.of());
    for (String index : List.of("ev", "bl")) {
      StringBuilder body = new StringBuilder();
      for (int i = 0; i < EVENTS; i++) {
        String session = session(i);
        body.append(
            String.format(
                "{\"time\":%d,\"host\":\"h\",\"sourcetype\":\"hand\",\"index\":\"%s\","
                    + "\"event\":\"event %d\",\"fields\":{\"level\":\"l%d\"%s}}%n",
                time(i),
                index,
                i,
                i % 3,
                session == null ? "" : ",\"session\":\"" + session + "\""));
      }
      TestServers.postEvents(server, TOKEN, body.toString());
    }
    for (String index : List.of("ev", "bl")) {
      TestServers.awaitCount(server, PASSWORD, index, EVENTS, 400);
    }
  }

  /** Event {@code i}'s session (capitals and digits, as a session id), or null for one in six. */
  private static String session(int i) {
    return i % 6 == 5 ? null : "SD%05dSL".formatted(i * 7 % SESSIONS);
  }

  private static long time(int i) {
    return START + i;
  }

  private static final String QUERY = "| stats count, range(_time) AS d by session";

  /** Per session, in natural order (here: String order), {@code count d}. */
  private static Map<String, String> expected() {
    Map<String, long[]> sessions = new TreeMap<>();
    for (int i = 0; i < EVENTS; i++) {
      if (session(i) != null) {
        long[] state =
            sessions.computeIfAbsent(
                session(i), s -> new long[] {0, Long.MAX_VALUE, Long.MIN_VALUE});
        state[0]++;
        state[1] = Math.min(state[1], time(i));
        state[2] = Math.max(state[2], time(i));
      }
    }
    Map<String, String> rows = new java.util.LinkedHashMap<>();
    sessions.forEach((s, state) -> rows.put(s, state[0] + " " + (state[2] - state[1])));
    return rows;
  }

  /** The export's rows in the order answered. */
  private static Map<String, String> answer(String search) throws Exception {
    String body = TestServers.exportOk(server, PASSWORD, search);
    Map<String, String> rows = new java.util.LinkedHashMap<>();
    ObjectMapper json = new ObjectMapper();
    for (String line : body.split("\n")) {
      JsonNode result = line.isBlank() ? null : json.readTree(line).get("result");
      if (result != null) {
        rows.put(
            result.get("session").asText(),
            result.get("count").asText() + " " + result.get("d").asText());
      }
    }
    return rows;
  }

  @Test
  void theGroupsByEntryAreHandedOverUnhashedInOrder() throws Exception {
    Map<String, String> expected = expected();
    assertThat(expected).hasSizeGreaterThan(20_000);
    for (String index : List.of("bl", "ev")) {
      String search = "search index=" + index + " " + QUERY;
      SearchStats stats =
          server.search().run(search, server.search().plan(search, null, null), page -> {});
      assertThat(stats.segments()).as(stats.toString()).isEqualTo(1);
      if (index.equals("bl")) {
        assertThat(stats.pagesByEntry()).as(stats.toString()).isPositive();
        // a slice's partial meets a quarter of the entries within a few pages: the rest in place
        assertThat(stats.pagesInPlace())
            .as(stats.toString())
            .isPositive()
            .isLessThan(stats.pagesByEntry());
        assertThat(stats.summary(search)).contains(" pages_in_place=" + stats.pagesInPlace());
        // every group of the pages by entry, once: most of the sessions
        assertThat(stats.groupsHandedWhole())
            .as(stats.toString())
            .isGreaterThan(expected.size() / 2)
            .isLessThanOrEqualTo(expected.size());
      } else {
        assertThat(stats.groupsHandedWhole()).as(stats.toString()).isZero();
        assertThat(stats.pagesInPlace()).as(stats.toString()).isZero(); // no ordinals
      }
      Map<String, String> answer = answer(search);
      assertThat(new ArrayList<>(answer.keySet()))
          .as(index + ": in natural order")
          .isEqualTo(new ArrayList<>(expected.keySet()));
      assertThat(answer).as(index).isEqualTo(expected);
    }
  }

  /**
   * The job inspector shows the pages added in place ({@code scan.pagesInPlace}, over HTTP): some
   * for the whole segment; none for its first {@value #FEW} events, whose sessions are too few of
   * the dictionary's for its entries' states to move in place though their pages group by entry.
   */
  @Test
  void theJobCostsCountThePagesAddedInPlace() throws Exception {
    String all = "search index=bl " + QUERY;
    JsonNode costs = EventRunSearchTest.inspect(server, PASSWORD, all).at("/costs/scan");
    assertThat(costs.at("/pagesInPlace").isNumber()).as(costs.toString()).isTrue();
    assertThat(costs.at("/pagesInPlace").asLong()).as(costs.toString()).isPositive();
    String few = "search index=bl latest=" + time(FEW) + " " + QUERY;
    SearchStats stats = server.search().run(few, server.search().plan(few, null, null), page -> {});
    assertThat(stats.pagesByEntry()).as(stats.toString()).isPositive();
    assertThat(stats.pagesInPlace()).as(stats.toString()).isZero();
    costs = EventRunSearchTest.inspect(server, PASSWORD, few).at("/costs/scan");
    assertThat(costs.at("/pagesInPlace").isNumber()).as(costs.toString()).isTrue();
    assertThat(costs.at("/pagesInPlace").asLong()).as(costs.toString()).isZero();
  }

  /** Events read by the search of too few sessions to move in place (a quarter is 6,250). */
  private static final int FEW = 3_000;
}
