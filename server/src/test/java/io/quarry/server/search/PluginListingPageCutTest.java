package io.quarry.server.search;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21, the second open case of {@link ListingPageCutTest}: after a plugin command that
 * rewrites a named field in place over the events ({@code fillnull value=X f}, {@code replace … IN
 * f}, {@code filldown f}, {@code nomv f}), each row lists the field wherever it holds a value — its
 * index-time one, its own search-time one, or the one the command set — whatever rows share its
 * batch. Before, a row whose value was its own search-time one listed it only where another row of
 * its batch made the operator write a new column (a null filled, a value replaced), so the same
 * events listed in pages of one row and of 1,024 differed. Four events, in both layouts (index
 * {@code ev} keeps events, {@code bl} blocks), their fields written here by hand, newest first:
 * {@code n=4} has {@code region=kv0} as text only, {@code n=3} holds {@code region=eu} and {@code
 * zone=z1} at index time (its text's {@code region=kv2} loses to it), {@code n=2} has no region at
 * all, {@code n=1} has {@code region=kv1} as text only.
 */
class PluginListingPageCutTest {
  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.startLayouts(directory, "pluginpagecut-pw", TestServers.TOKEN, s -> s);
    StringBuilder events = new StringBuilder();
    for (String index : List.of("ev", "bl")) {
      events
          .append(PageCutListings.envelope(index, 1, "level=WARN n=1 region=kv1", null))
          .append(PageCutListings.envelope(index, 2, "level=INFO n=2 team=t1", null))
          .append(
              PageCutListings.envelope(
                  index, 3, "level=INFO n=3 region=kv2", "{\"region\":\"eu\",\"zone\":\"z1\"}"))
          .append(PageCutListings.envelope(index, 4, "level=INFO n=4 region=kv0", null));
    }
    TestServers.postEvents(server, TestServers.TOKEN, events.toString());
  }

  /** {@code commands} over each layout's events, in pages of 1, 2, 7 and 1,024 rows. */
  private static void listsInPagesOfAnySize(String commands, List<Map<String, String>> expected)
      throws Exception {
    PageCutListings.listsInBothLayouts(server, commands, expected);
  }

  private static final Map<String, String> N3 = Map.of("region", "[eu]", "zone", "[z1]");

  @Test
  void fillnullSetsTheFieldOnEveryRow() throws Exception {
    // n=2's null becomes X; the others keep their own value, search-time ones included
    listsInPagesOfAnySize(
        "fillnull value=X region",
        List.of(Map.of("region", "[kv0]"), N3, Map.of("region", "[X]"), Map.of("region", "[kv1]")));
  }

  @Test
  void fillnullWithoutFieldsListsWhatItFilledOnEveryRow() throws Exception {
    // it fills every field of the answer where a row has none: region (n=2's), team (all but
    // n=2's) and zone (all but n=3's) are written, so every row lists them with its value — its
    // own search-time kv0, kv1, t1 included; level and n, which every row has, it writes nowhere
    // and no row lists (session 39: before, a field was listed on the rows of a batch where some
    // row lacked it, so n=4's kv0 in a page of its own was not)
    listsInPagesOfAnySize(
        "fillnull value=X",
        List.of(
            Map.of("region", "[kv0]", "team", "[X]", "zone", "[X]"),
            Map.of("region", "[eu]", "zone", "[z1]", "team", "[X]"),
            Map.of("region", "[X]", "team", "[t1]", "zone", "[X]"),
            Map.of("region", "[kv1]", "team", "[X]", "zone", "[X]")));
  }

  @Test
  void replaceListsTheFieldWhereTheRowHoldsAValue() throws Exception {
    // only n=1's value is replaced; n=4 keeps its own kv0, listed all the same
    listsInPagesOfAnySize(
        "replace kv1 WITH K IN region",
        List.of(Map.of("region", "[kv0]"), N3, Map.of(), Map.of("region", "[K]")));
  }

  @Test
  void filldownListsTheFieldWhereTheRowHoldsAValue() throws Exception {
    // in result order (newest first) n=2 takes n=3's eu
    listsInPagesOfAnySize(
        "filldown region",
        List.of(
            Map.of("region", "[kv0]"), N3, Map.of("region", "[eu]"), Map.of("region", "[kv1]")));
  }

  /** Review b40: {@code filldown reg*} (Splunk's wildcard field list) fills and lists region. */
  @Test
  void filldownOfAPatternFillsAndListsTheFieldsItMatches() throws Exception {
    listsInPagesOfAnySize(
        "filldown reg*",
        List.of(
            Map.of("region", "[kv0]"), N3, Map.of("region", "[eu]"), Map.of("region", "[kv1]")));
  }

  @Test
  void nomvListsTheFieldWhereTheRowHoldsAValue() throws Exception {
    listsInPagesOfAnySize(
        "nomv region", List.of(Map.of("region", "[kv0]"), N3, Map.of(), Map.of("region", "[kv1]")));
  }
}
