package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

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
 * Review c38 of lane overlay: {@link PluginListingPageCutTest} names the field ({@code replace … IN
 * region}, {@code filldown region}); a plugin command that writes every field ({@code replace kv1
 * WITH K} without {@code IN}, {@code filldown} without fields) has no {@code producedFields}, so
 * what a row lists must still not follow the batch cuts: the same events in pages of 1, 2 and 1,024
 * rows list the same fields with the same values. The events: {@code n=2} has {@code region=kv1} in
 * its text only, {@code n=1} {@code region=kv0} (newest first: n=2, n=1).
 */
class PluginListingAllFieldsPageCutTest {
  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.startLayouts(directory, "pluginallcut-pw", TestServers.TOKEN, s -> s);
    StringBuilder events = new StringBuilder();
    for (String index : List.of("ev", "bl")) {
      events
          .append(PageCutListings.envelope(index, 1, "level=INFO n=1 region=kv0", null))
          .append(PageCutListings.envelope(index, 2, "level=INFO n=2", null))
          .append(PageCutListings.envelope(index, 3, "level=WARN n=3 region=kv1", null));
    }
    TestServers.postEvents(server, TestServers.TOKEN, events.toString());
  }

  private static void sameInPagesOfAnySize(String commands) throws Exception {
    for (String index : List.of("ev", "bl")) {
      String query = "index=" + index + " | " + commands;
      List<Map<String, String>> whole =
          PageCutListings.listed(server, query, SearchService.PAGE_SIZE);
      assertThat(whole).as("%s", query).hasSize(3);
      for (int pageSize : new int[] {1, 2}) {
        assertThat(PageCutListings.listed(server, query, pageSize))
            .as("%s in pages of %d", query, pageSize)
            .isEqualTo(whole);
      }
    }
  }

  @Test
  void replaceWithoutInListsTheSameFieldsWhateverThePages() throws Exception {
    sameInPagesOfAnySize("replace kv1 WITH K");
  }

  @Test
  void filldownWithoutFieldsListsTheSameFieldsWhateverThePages() throws Exception {
    sameInPagesOfAnySize("filldown");
  }

  @Test
  void filldownWithoutFieldsFillsTheRowWithoutRegionWhateverThePages() throws Exception {
    // Splunk: filldown with no field list fills every field; n=2 takes n=3's kv1 (result order)
    for (String index : List.of("ev", "bl")) {
      for (int pageSize : new int[] {1, 2, SearchService.PAGE_SIZE}) {
        assertThat(
                PageCutListings.listed(server, "index=" + index + " | filldown", pageSize)
                    .get(1)
                    .get("region"))
            .as("index=%s | filldown in pages of %d: n=2's region", index, pageSize)
            .isEqualTo("[kv1]");
      }
    }
  }
}
