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
 * Issue 21, the last listing that followed its pages: among an {@code append}'s rows an event lists
 * what it lists without them (fast mode: its default and index-time fields, those its commands set)
 * and an appended row what it holds, whatever rows share a page. Before session 39 an event showed
 * its search-time value of every field an appended row of its page held, so the same search in
 * pages of one row and of 1,024 listed different fields. Four events in both layouts, newest first:
 * {@code n=4} has {@code region=kv4} as text only, {@code n=3} holds {@code zone=z3} at index time
 * and {@code region=kv3} as text, {@code n=2} holds {@code zone=z2} at index time, {@code n=1} has
 * {@code region=kv1} as text. Expected rows written by hand; a subsearch's events carry every field
 * they have (its text's pairs too).
 */
class AppendListingPageCutTest {
  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.startLayouts(directory, "appendcut-pw", TestServers.TOKEN, s -> s);
    StringBuilder events = new StringBuilder();
    for (String index : List.of("ev", "bl")) {
      events
          .append(PageCutListings.envelope(index, 1, "level=INFO n=1 region=kv1", null))
          .append(PageCutListings.envelope(index, 2, "level=WARN n=2", "{\"zone\":\"z2\"}"))
          .append(
              PageCutListings.envelope(index, 3, "level=INFO n=3 region=kv3", "{\"zone\":\"z3\"}"))
          .append(PageCutListings.envelope(index, 4, "level=INFO n=4 region=kv4", null));
    }
    TestServers.postEvents(server, TestServers.TOKEN, events.toString());
  }

  @Test
  void appendedEventsDoNotMakeTheEventsListTheirFields() throws Exception {
    // n=4 and n=3 as alone (n=3's index-time zone); then the subsearch's n=2 and n=1 with their
    // search-time level, n and region and n=2's index-time zone
    PageCutListings.listsInBothLayouts(
        server,
        "where n>=3 | append [search index=%s n<=2]",
        List.of(
            Map.of(),
            Map.of("zone", "[z3]"),
            Map.of("level", "[WARN]", "n", "[2]", "zone", "[z2]"),
            Map.of("level", "[INFO]", "n", "[1]", "region", "[kv1]")));
  }

  @Test
  void appendedResultsDoNotMakeTheEventsListTheirFields() throws Exception {
    // the four events as alone, then the subsearch's two rows (INFO 3, WARN 1): no event lists
    // level, which every event has in its text
    PageCutListings.listsInBothLayouts(
        server,
        "append [search index=%s | stats count by level]",
        List.of(
            Map.of(),
            Map.of("zone", "[z3]"),
            Map.of("zone", "[z2]"),
            Map.of(),
            Map.of("level", "[INFO]", "count", "[3]"),
            Map.of("level", "[WARN]", "count", "[1]")));
  }

  @Test
  void theEventsCommandsStillSetTheirFields() throws Exception {
    // an eval before the append sets k on the events; one after it on every row (Splunk: eval
    // runs on each result), the subsearch's row included
    PageCutListings.listsInBothLayouts(
        server,
        "eval k=n | append [search index=%s n=1 | table n, region] | eval j=1",
        List.of(
            Map.of("k", "[4]", "j", "[1]"),
            Map.of("zone", "[z3]", "k", "[3]", "j", "[1]"),
            Map.of("zone", "[z2]", "k", "[2]", "j", "[1]"),
            Map.of("k", "[1]", "j", "[1]"),
            Map.of("n", "[1]", "region", "[kv1]", "j", "[1]")));
  }
}
