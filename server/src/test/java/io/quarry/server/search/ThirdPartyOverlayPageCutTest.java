package io.quarry.server.search;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.plugins.PluginJars;
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
  private static final String MASKKV =
      """
      package p.maskkv;

      import io.quarry.plugin.api.QuarryPlugin;
      import io.quarry.plugin.api.command.*;
      import io.quarry.plugin.api.data.*;
      import java.util.List;
      import java.util.Set;

      public final class MaskPlugin implements QuarryPlugin {
        @Override
        public List<CommandDefinition> commands() {
          return List.of(new CommandDefinition() {
            public String name() { return "maskkv"; }
            public String description() { return "every text value kv1 becomes masked"; }
            public CommandKind kind() { return CommandKind.STREAMING; }
            public List<ArgumentSpec> arguments() { return List.of(); }
            public BoundCommand bind(CommandArguments arguments) {
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
            }
          });
        }

        private static boolean holds(Block block) {
          for (int p = 0; p < block.positionCount(); p++) {
            if (block.getValues(p).contains("kv1")) return true;
          }
          return false;
        }
      }
      """;

  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    Path plugins = directory.resolve("plugins");
    PluginJars.write(
        plugins,
        "maskkv",
        PluginJars.descriptor("maskkv", "1.0"),
        Map.of("p.maskkv.MaskPlugin", MASKKV),
        "p.maskkv.MaskPlugin");
    server =
        TestServers.startLayouts(
            directory.resolve("data"),
            "maskkv-pw",
            TestServers.TOKEN,
            s -> s.put("plugins.dir", plugins.toString()));
    StringBuilder events = new StringBuilder();
    for (String index : List.of("ev", "bl")) {
      events
          .append(PageCutListings.envelope(index, 1, "level=WARN n=1 region=kv1", null))
          .append(PageCutListings.envelope(index, 2, "level=INFO n=2", null))
          .append(PageCutListings.envelope(index, 3, "level=INFO n=3", "{\"region\":\"eu\"}"))
          .append(PageCutListings.envelope(index, 4, "level=INFO n=4 region=kv0", null));
    }
    TestServers.postEvents(server, TestServers.TOKEN, events.toString());
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
