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
 * Issue 21 (mend21): the built-in plugin commands that read every field and name no field they
 * write, or name them only by pattern ({@code foreach}, {@code spath} without a path, {@code
 * xmlkv}, {@code convert} of a wildcard …: {@code io.quarry.ql.exec.OverlayCommands
 * #writesEveryField}), name a field they rewrite in place, over events, as {@code replace} without
 * {@code IN} and third-party commands do ({@link ThirdPartyOverlayPageCutTest}): on the rows whose
 * value they changed. Before, a field was named on every row of a batch where the command built a
 * new block of it, so a row's own search-time value was listed or not by where pages parted ({@code
 * spath} and {@code xmlkv}: listed in pages of 1,024 rows, not in pages of one) or wherever the
 * command rebuilt the column ({@code foreach}). Four events in both layouts, newest first: {@code
 * n=4} has {@code region=kv0} as text, {@code n=3} holds {@code region=eu} at index time, {@code
 * n=2} has no region, {@code n=1} has {@code region=kv1} as text and {@code
 * <region>masked</region>} in its text. Expected rows written by hand; each read in pages of 1, 2,
 * 7 and 1,024 rows.
 */
class BuiltinOverlayPageCutTest {
  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;

  /** What every case lists: {@code region} changed on n=1 only; n=3's index-time one as ever. */
  private static final List<Map<String, String>> MASKED_ON_N1 =
      List.of(Map.of(), Map.of("region", "[eu]"), Map.of(), Map.of("region", "[masked]"));

  @BeforeAll
  static void start() throws Exception {
    server =
        TestServers.startLayouts(
            directory.resolve("data"), "builtincut-pw", TestServers.TOKEN, s -> s);
    TestServers.postEvents(
        server,
        TestServers.TOKEN,
        PageCutListings.regionEvents("level=WARN n=1 region=kv1 <region>masked</region>"));
  }

  @Test
  void foreachNamesAFieldOnTheRowsItChangedItOn() throws Exception {
    // the eval rebuilds region on every row that has one; it changes n=1's only
    PageCutListings.listsInBothLayouts(
        server,
        "foreach reg* [eval <<FIELD>>=replace(<<FIELD>>, \"kv1\", \"masked\")]",
        MASKED_ON_N1);
  }

  @Test
  void xmlkvNamesAFieldOnTheRowsItChangedItOn() throws Exception {
    // it sets region from n=1's element: n=4's own kv0 stays unlisted wherever the pages part
    PageCutListings.listsInBothLayouts(server, "xmlkv", MASKED_ON_N1);
  }

  @Test
  void spathNamesAFieldOnTheRowsItChangedItOn() throws Exception {
    // j (set on n=1 only, listed there) gives n=1 region=masked
    PageCutListings.listsInBothLayouts(
        server,
        "eval j=if(n==1, \"{\\\"region\\\":\\\"masked\\\"}\", null()) | spath input=j",
        List.of(
            Map.of(),
            Map.of("region", "[eu]"),
            Map.of(),
            Map.of("j", "[{\"region\":\"masked\"}]", "region", "[masked]")));
  }
}
