package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

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
 * Review of issue 21's fast-mode listing (lane listing): a field a command names — {@code fields},
 * {@code table}, {@code rename}, {@code eval} of it — is required by the search, so Splunk extracts
 * it at search time in every mode and shows the event's own value, whatever the page. The middle
 * event holds {@code region} only in its text ({@code region=kv0}); the others at index time
 * ({@code eu}, {@code us}: index-time values win, as {@code IndexTimeFieldPrecedenceTest} pins).
 * Expectations written by hand from the three events.
 */
class ListingNamedFieldsTest {
  private static final long BASE = 1_767_225_600L;
  private static final List<String> DEFAULTS =
      List.of("_raw", "_time", "host", "index", "source", "sourcetype");

  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(directory, "namedfields-pw");
    TestServers.postEvents(
        server,
        TestServers.TOKEN,
        envelope(1, "level=WARN n=1 region=kv1", "{\"region\":\"us\"}")
            + envelope(2, "level=INFO n=2 region=kv0 team=t1", null)
            + envelope(3, "level=INFO n=3 region=kv2", "{\"region\":\"eu\",\"zone\":\"z1\"}"));
  }

  private static String envelope(int i, String text, String fields) {
    return "{\"time\":"
        + (BASE + i)
        + ",\"host\":\"h\",\"sourcetype\":\"app\",\"event\":"
        + com.fasterxml.jackson.databind.node.TextNode.valueOf(text)
        + (fields == null ? "" : ",\"fields\":" + fields)
        + "}\n";
  }

  /** Each row's fields (besides the default ones) and their values, newest first. */
  private static List<Map<String, String>> listed(String query, int pageSize) throws Exception {
    List<Map<String, String>> rows = new ArrayList<>();
    for (String row : EnginePages.rows(server, query, false, pageSize)) {
      Map<String, String> cells = new TreeMap<>();
      for (String cell : row.split("\u0001")) {
        String name = cell.substring(0, cell.indexOf(':'));
        if (!DEFAULTS.contains(name)) {
          cells.put(name, cell.substring(cell.indexOf('=') + 1));
        }
      }
      rows.add(cells);
    }
    return rows;
  }

  private static void listsInPagesOfAnySize(String query, List<Map<String, String>> expected)
      throws Exception {
    for (int pageSize : new int[] {1, 2, SearchService.PAGE_SIZE}) {
      assertThat(listed(query, pageSize))
          .as("%s in pages of %d", query, pageSize)
          .isEqualTo(expected);
    }
  }

  @Test
  void fieldsOfANameShowsTheMiddleEventsSearchTimeValue() throws Exception {
    listsInPagesOfAnySize(
        "* | fields region",
        List.of(Map.of("region", "[eu]"), Map.of("region", "[kv0]"), Map.of("region", "[us]")));
  }

  @Test
  void renameCarriesTheMiddleEventsSearchTimeValue() throws Exception {
    listsInPagesOfAnySize(
        "* | rename region AS r",
        List.of(Map.of("r", "[eu]", "zone", "[z1]"), Map.of("r", "[kv0]"), Map.of("r", "[us]")));
  }

  @Test
  void evalOfAReadFieldSetsItOnEveryRow() throws Exception {
    listsInPagesOfAnySize(
        "* | eval r=region",
        List.of(
            Map.of("region", "[eu]", "zone", "[z1]", "r", "[eu]"),
            Map.of("r", "[kv0]"),
            Map.of("region", "[us]", "r", "[us]")));
  }
}
