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
 * Review of issue 21's fast-mode listing (lane listing): a field a command names — {@code fields},
 * {@code table}, {@code rename}, {@code eval} of it — is required by the search, so Splunk extracts
 * it at search time in every mode and shows the event's own value, whatever the page. The middle
 * event holds {@code region} only in its text ({@code region=kv0}); the others at index time
 * ({@code eu}, {@code us}: index-time values win, as {@code IndexTimeFieldPrecedenceTest} pins).
 * Expectations written by hand from the three events.
 */
class ListingNamedFieldsTest {
  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(directory, "namedfields-pw");
    TestServers.postEvents(server, TestServers.TOKEN, PageCutListings.threeListingEvents());
  }

  private static void listsInPagesOfAnySize(String query, List<Map<String, String>> expected)
      throws Exception {
    PageCutListings.listsInPagesOfAnySize(server, query, expected);
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
