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
 * Issue 21 (lane flake2's finding): a plain event listing shows on each row the fields that row
 * lists — its default fields, its own index-time fields, the fields its commands set — whatever
 * rows share its page. Before, a row showed its search-time value of a field wherever another row
 * of its page held that field at index time (or a command read it), so the same events listed in
 * pages of one row and of 1,024 differed. Three events, their fields written here by hand: the
 * newest ({@code n=3}) holds {@code region} and {@code zone} at index time, the middle one has only
 * text pairs ({@code region=kv0}), the oldest holds {@code region} at index time.
 */
class ListingPageCutTest {
  private static final long BASE = 1_767_225_600L;
  private static final List<String> DEFAULTS =
      List.of("_raw", "_time", "host", "index", "source", "sourcetype");

  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(directory, "pagecut-pw");
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
  void aRowListsItsOwnIndexTimeFieldsWhateverItsPage() throws Exception {
    // the middle event's region=kv0 is text only: no row of any page makes it a field of that row
    listsInPagesOfAnySize(
        "*", List.of(Map.of("region", "[eu]", "zone", "[z1]"), Map.of(), Map.of("region", "[us]")));
  }

  @Test
  void aFieldACommandReadsShowsOnlyWhereTheRowListsIt() throws Exception {
    // where reads region (the middle event's from its text) and n: neither is listed for it
    listsInPagesOfAnySize(
        "* | where n>0 AND region!=\"none\"",
        List.of(Map.of("region", "[eu]", "zone", "[z1]"), Map.of(), Map.of("region", "[us]")));
  }

  @Test
  void theCommandsSetFieldsOnEveryRowWhateverItsPage() throws Exception {
    // eval sets k on every row; rex sets t where it matches (team=t1, the middle event only)
    listsInPagesOfAnySize(
        "* | eval k=1 | rex \"team=(?<t>\\w+)\"",
        List.of(
            Map.of("region", "[eu]", "zone", "[z1]", "k", "[1]"),
            Map.of("k", "[1]", "t", "[t1]"),
            Map.of("region", "[us]", "k", "[1]")));
  }
}
