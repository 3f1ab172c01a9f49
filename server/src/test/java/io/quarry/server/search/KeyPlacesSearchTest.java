package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
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
 * {@code stats count by sid} over blocks of many events, where key=value extraction answers most
 * events from one pass over the block's texts ({@code KeyPlaces}): every way a line can hold the
 * key or only seem to — one pair, none, a longer key, the key inside another pair's value (quoted
 * or not), the key twice, a quoted value before it or its own, an empty value — written in a
 * shuffled order, the counts expected from how each line was made; {@value #ESCAPED_LINES} more
 * with a backslash, outside quotes or inside a quoted value, read as {@code kvMode: auto} reads it
 * (props.conf.spec): an ordinary character, so the quote after it closes the value and the pair
 * after that quote is read ({@code auto_escaped}, which honours the escape, is {@code
 * EscapedQuoteFilterTest}'s). {@value #LINES} lines, several blocks of events (a block holds at
 * most 2,048), loaded in two halves: the column goes from one block's places to the next's; a
 * filtered search asks a few events of each block.
 */
class KeyPlacesSearchTest {
  private static final String PASSWORD = "key-places-pw";
  private static final int LINES = 5_000;
  private static final int ESCAPED_LINES = 600;

  @TempDir static Path dataDirectory;
  @AutoClose private static QuarryServer server;
  private static final Map<String, Long> expected = new TreeMap<>();
  private static final Map<String, Long> expectedOfAnn = new TreeMap<>(); // user=ann's lines

  /** Line {@code i}'s text; its session ids go into {@link #expected}. */
  private static String line(int i) {
    String time = String.format("2026-01-01 %02d:%02d:%02d ", i / 3600, i / 60 % 60, i % 60);
    int n = i % 7;
    List<String> sids = new ArrayList<>();
    String text =
        switch (i >= LINES ? 10 + i % 3 : i % 10) {
          case 0 -> {
            sids.add("S" + n);
            expectedOfAnn.merge("S" + n, 1L, Long::sum);
            yield "GET /a?sid=S" + n + "&x=1 user=ann";
          }
          case 1 -> "GET /b user=bob took=3";
          case 2 -> "GET /c?xsid=X" + n + " y=1";
          case 3 -> "q=\"a sid=Q" + n + "\" r=2";
          case 4 -> "q=a?sid=Z" + n + " r=2";
          case 5 -> {
            sids.add("A" + n);
            sids.add("B" + n);
            yield "GET /d?sid=A" + n + "&sid=B" + n + " HTTP";
          }
          case 6 -> {
            sids.add("C" + n);
            yield "u=\"v w\" sid=C" + n;
          }
          case 7 -> {
            sids.add("D " + n);
            yield "GET sid=\"D " + n + "\" z=1";
          }
          case 8 -> "GET /e?sid= user=e";
          case 9 -> {
            sids.add("S" + n);
            yield "\"GET /f?JSESSION=1&sid=S" + n + " HTTP 1.1\" 200 \"http://h/x?a=b&c=d\"";
          }
          case 10 -> {
            sids.add("W" + n);
            yield "path=C:\\dir\\f \\ sid=W" + n;
          }
          case 11 -> { // auto: msg is `x\`, its closing quote the escaped one
            sids.add("F" + n);
            sids.add("G" + n);
            yield "msg=\"x\\\" sid=F" + n + " y=\" sid=G" + n;
          }
          default -> {
            sids.add("H" + n);
            sids.add("I" + n);
            yield "sid=H" + n + " k=\"a\\\\\" sid=I" + n;
          }
        };
    for (String sid : sids) {
      expected.merge(sid, 1L, Long::sum);
    }
    return time + text;
  }

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(dataDirectory, PASSWORD); // the block layout, the default
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < LINES + ESCAPED_LINES; i++) {
      order.add(i);
    }
    java.util.Collections.shuffle(order, new java.util.Random(5));
    StringBuilder lines = new StringBuilder();
    for (int k = 0; k < order.size(); k++) {
      lines.append(line(order.get(k))).append('\n');
      if (k == order.size() / 2) { // two loads of times over the same span
        TestServers.loadRaw(server, lines.toString());
        lines.setLength(0);
      }
    }
    TestServers.loadRaw(server, lines.toString());
  }

  /** The {@code sid} counts a search answers by {@code stats count by sid}. */
  private static Map<String, Long> counts(String search) throws Exception {
    HttpResponse<String> response = TestServers.export(server, PASSWORD, search);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    Map<String, Long> counted = new TreeMap<>();
    ObjectMapper json = new ObjectMapper();
    for (String row : response.body().split("\n")) {
      if (row.isBlank()) {
        continue;
      }
      JsonNode result = json.readTree(row).get("result");
      if (result != null && result.has("sid")) {
        counted.put(result.get("sid").asText(), result.get("count").asLong());
      }
    }
    return counted;
  }

  @Test
  void countsEveryLinesSessionIds() throws Exception {
    assertThat(expected.values().stream().mapToLong(Long::longValue).sum())
        .isEqualTo(3_000 + 1_000);
    assertThat(counts("search * | stats count by sid")).isEqualTo(expected);
  }

  @Test
  void countsTheSessionIdsOfAFewEventsPerBlock() throws Exception {
    // one line in ten: too few of a block's bytes for a pass over it, each scanned alone
    assertThat(expectedOfAnn.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(500);
    assertThat(counts("search user=ann | stats count by sid")).isEqualTo(expectedOfAnn);
  }

  @Test
  void countsEveryLinesSessionIdsNewestFirst() throws Exception {
    // the time-ordered scan (head), whose events of the two loads' blocks interleave
    assertThat(counts("search * | head 5600 | stats count by sid")).isEqualTo(expected);
  }
}
