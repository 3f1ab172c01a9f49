package io.quarry.server.search;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.plugins.TestPlugins;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21: a third-party plugin command that reads every field ({@code *}) and names none it
 * produces writes whatever it likes; over events, a streaming one's rows each list the fields whose
 * value it changed on that row (and keep what they listed before it), whatever rows shared its
 * batch: its output is not held, so a {@code head} after it still stops the search (mendl, session
 * 39; the lane listing2 rule, every row holding a value of a field changed on some row, held the
 * whole output, ListingUnderHeadHeldTest). Before session 39 a field was named on every row of the
 * batches where the operator built a new block of it and on no row of the others, so a row's own
 * search-time value was listed or not by where pages parted. The plugin {@code maskkv} (loaded from
 * the plugin path, compiled here) sets every text value {@code kv1} to {@code masked}, handing a
 * column back where no value is {@code kv1}. Four events in both layouts, newest first: {@code n=4}
 * has {@code region=kv0} as text, {@code n=3} holds {@code region=eu} at index time, {@code n=2}
 * has no region, {@code n=1} has {@code region=kv1} as text. Expected rows written by hand.
 */
class ThirdPartyOverlayPageCutTest {
  /** Every text value {@code kv1} becomes {@code masked}; a column without one is handed back. */
  private static final TestPlugins.Command MASKKV =
      new TestPlugins.Command(
          "maskkv",
          "every text value kv1 becomes masked",
          "STREAMING",
          "List.of()",
          """
          return new BoundCommand() {
            public Set<String> requiredFields() { return Set.of("*"); }
            public Set<String> producedFields() { return Set.of(); }
            public Operator createOperator(OperatorContext context) {
              BlockFactory factory = context.blockFactory();
              return new PageTransformOperator() {
                protected Page process(Page page) {
                  Page out = page;
                  for (int c = 0; c < page.schema().size(); c++) {
                    Block block = page.block(c);
                    if (block.dataType() != DataType.STRING || !holds(block)) continue;
                    BytesBlock.Builder masked = factory.newBytesBlockBuilder(block.positionCount());
                    for (int p = 0; p < block.positionCount(); p++) {
                      List<Object> values = block.getValues(p);
                      if (values.isEmpty()) { masked.appendNull(); continue; }
                      masked.beginPositionEntry();
                      for (Object v : values) masked.append("kv1".equals(v) ? "masked" : (String) v);
                      masked.endPositionEntry();
                    }
                    out = factory.withColumn(out, page.schema().column(c).name(), masked.build());
                  }
                  return out;
                }
              };
            }
          };
          """);

  /** Whether a block holds the value {@code kv1} at some position (a member of the plugin). */
  private static final String HOLDS =
      """
        private static boolean holds(Block block) {
          for (int p = 0; p < block.positionCount(); p++) {
            if (block.getValues(p).contains("kv1")) return true;
          }
          return false;
        }
      """;

  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    Path plugins = directory.resolve("plugins");
    TestPlugins.install(plugins, "maskkv", List.of(), List.of(MASKKV), HOLDS);
    server =
        TestServers.startLayouts(
            directory.resolve("data"),
            "maskkv-pw",
            TestServers.TOKEN,
            s -> s.put("plugins.dir", plugins.toString()));
    TestServers.postEvents(
        server, TestServers.TOKEN, PageCutListings.regionEvents("level=WARN n=1 region=kv1"));
  }

  @Test
  void aFieldItChangedIsListedOnTheRowsItChangedItOn() throws Exception {
    // it changed region on n=1 only: n=4's own search-time kv0 is not listed, whichever rows
    // shared n=1's batch; level and n it changed nowhere
    PageCutListings.listsInBothLayouts(
        server,
        "maskkv",
        List.of(Map.of(), Map.of("region", "[eu]"), Map.of(), Map.of("region", "[masked]")));
  }

  @Test
  void nothingChangedNothingListed() throws Exception {
    // without n=1 no value is kv1: no row lists a search-time field
    PageCutListings.listsInBothLayouts(
        server, "search n>1 | maskkv", List.of(Map.of(), Map.of("region", "[eu]"), Map.of()));
  }
}
