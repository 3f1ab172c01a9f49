package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The listing tests' common part: HEC envelopes written by hand, and a plain listing read in pages
 * of 1, 2, 7 and {@link SearchService#PAGE_SIZE} rows ({@link EnginePages#rows}) as each row's
 * fields besides the default ones, so a field that shows on a row only because of its page
 * neighbours makes the pages disagree.
 */
final class PageCutListings {
  /** The events' times: {@code BASE + i} for the {@code i}th. */
  static final long BASE = 1_767_225_600L;

  private static final List<String> DEFAULTS =
      List.of("_raw", "_time", "host", "index", "source", "sourcetype");

  private PageCutListings() {}

  /**
   * A HEC envelope of {@code text} at {@code BASE + i}, host {@code h}, sourcetype {@code app},
   * into {@code index} (the token's default when null), with index-time {@code fields} (a JSON
   * object, or null for none).
   */
  static String envelope(String index, int i, String text, String fields) {
    return "{\"time\":"
        + (BASE + i)
        + (index == null ? "" : ",\"index\":\"" + index + "\"")
        + ",\"host\":\"h\",\"sourcetype\":\"app\",\"event\":"
        + com.fasterxml.jackson.databind.node.TextNode.valueOf(text)
        + (fields == null ? "" : ",\"fields\":" + fields)
        + "}\n";
  }

  /**
   * The three events of the listing page-cut tests ({@code ListingPageCutTest}, {@code
   * ListingNamedFieldsTest}), into the token's default index: the newest ({@code n=3}) holds {@code
   * region=eu} and {@code zone=z1} at index time, the middle one only text pairs ({@code
   * region=kv0}), the oldest {@code region=us} at index time.
   */
  static String threeListingEvents() {
    return envelope(null, 1, "level=WARN n=1 region=kv1", "{\"region\":\"us\"}")
        + envelope(null, 2, "level=INFO n=2 region=kv0 team=t1", null)
        + envelope(null, 3, "level=INFO n=3 region=kv2", "{\"region\":\"eu\",\"zone\":\"z1\"}");
  }

  /**
   * The events of the overlay page-cut tests ({@code ThirdPartyOverlayPageCutTest}, {@code
   * BuiltinOverlayPageCutTest}) for both layouts' indexes: {@code n=1} of text {@code n1}, {@code
   * n=2} without a region, {@code n=3} holding {@code region=eu} at index time, {@code n=4} with
   * {@code region=kv0} as text.
   */
  static String regionEvents(String n1) {
    StringBuilder events = new StringBuilder();
    for (String index : List.of("ev", "bl")) {
      events
          .append(envelope(index, 1, n1, null))
          .append(envelope(index, 2, "level=INFO n=2", null))
          .append(envelope(index, 3, "level=INFO n=3", "{\"region\":\"eu\"}"))
          .append(envelope(index, 4, "level=INFO n=4 region=kv0", null));
    }
    return events.toString();
  }

  /** Each row's fields (besides the default ones) and their values, newest first. */
  static List<Map<String, String>> listed(QuarryServer server, String query, int pageSize)
      throws Exception {
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

  /** The page sizes a listing is read in: every row a page, pairs, sevens, the default. */
  static final int[] PAGE_SIZES = {1, 2, 7, SearchService.PAGE_SIZE};

  /** {@code query} lists {@code expected} in pages of 1, 2, 7 and 1,024 rows. */
  static void listsInPagesOfAnySize(
      QuarryServer server, String query, List<Map<String, String>> expected) throws Exception {
    for (int pageSize : PAGE_SIZES) {
      assertThat(listed(server, query, pageSize))
          .as("%s in pages of %d", query, pageSize)
          .isEqualTo(expected);
    }
  }

  /**
   * {@code commands} over the events of each layout ({@code index=ev}, {@code index=bl}: {@link
   * TestServers#startLayouts}) list {@code expected} in pages of any size ({@link #PAGE_SIZES});
   * {@code %s} in {@code commands} stands for the index, for subsearches.
   */
  static void listsInBothLayouts(
      QuarryServer server, String commands, List<Map<String, String>> expected) throws Exception {
    for (String index : List.of("ev", "bl")) {
      listsInPagesOfAnySize(
          server, "index=" + index + " | " + commands.replace("%s", index), expected);
    }
  }
}
