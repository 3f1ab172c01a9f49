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
 * Issue 21 (lane flake2's finding): a plain event listing shows on each row the fields that row
 * lists — its default fields, its own index-time fields, the fields its commands set — whatever
 * rows share its page. Before, a row showed its search-time value of a field wherever another row
 * of its page held that field at index time (or a command read it), so the same events listed in
 * pages of one row and of 1,024 differed. Three events, their fields written here by hand: the
 * newest ({@code n=3}) holds {@code region} and {@code zone} at index time, the middle one has only
 * text pairs ({@code region=kv0}), the oldest holds {@code region} at index time.
 */
class ListingPageCutTest {
  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(directory, "pagecut-pw");
    TestServers.postEvents(server, TestServers.TOKEN, PageCutListings.threeListingEvents());
  }

  private static void listsInPagesOfAnySize(String query, List<Map<String, String>> expected)
      throws Exception {
    PageCutListings.listsInPagesOfAnySize(server, query, expected);
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
