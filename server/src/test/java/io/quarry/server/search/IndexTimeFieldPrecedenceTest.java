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
 * Issue 21 (flake): an event with an index-time field (HEC {@code fields}) and a search-time
 * key=value pair of the same name answers its index-time value on every path — a plain listing, a
 * plugin command's every-field batches, a wildcard rename before or after one — over events in
 * several segments (each request refreshed apart), as {@code PluginOverEventsTest}'s wildcard
 * rename compares them; a plain listing lists no search-time field (fast mode: {@link
 * ListingPageCutTest}). The values are written here by hand from the events below.
 */
class IndexTimeFieldPrecedenceTest {
  private static final long BASE = 1_767_225_600L;
  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(directory, "precedence-pw");
    String[][] parts = {
      {
        envelope(
            1,
            "level=WARN n=1 region=kv1 team=t1 team=t2",
            "{\"team\":[\"a\",\"b\"],\"region\":\"us\"}"),
        envelope(2, "level=INFO n=2 region=kv0", null),
      },
      {
        envelope(3, "level=INFO n=3 region=kv1", "{\"region\":\"us\",\"zone\":\"z1\"}"),
        envelope(4, "level=INFO n=4", "{\"region\":\"eu\"}"),
        envelope(5, "level=WARN n=5 team=t1 team=t2", null),
      }
    };
    for (String[] part : parts) {
      TestServers.postEvents(server, TestServers.TOKEN, String.join("", part));
      EnginePages.rows(server, "* | head 1"); // a refresh: the next request is another segment
    }
  }

  private static String envelope(int i, String text, String fields) {
    return "{\"time\":"
        + (BASE + i)
        + ",\"host\":\"h\",\"sourcetype\":\"app\",\"event\":"
        + com.fasterxml.jackson.databind.node.TextNode.valueOf(text)
        + (fields == null ? "" : ",\"fields\":" + fields)
        + "}\n";
  }

  @Test
  void theIndexTimeValueWinsOnEveryPath() throws Exception {
    // by event (its _time): one cell per row, mvexpand making a row per team value
    Map<String, List<String>> expanded = new TreeMap<>();
    Map<String, List<String>> plain = new TreeMap<>();
    for (int i = 1; i <= 5; i++) {
      plain.put(time(i), List.of());
    }
    expanded.putAll(plain);
    expanded.put(time(1), List.of("[us]", "[us]")); // index-time team a, b: two rows
    expanded.put(time(2), List.of("[kv0]"));
    expanded.put(time(3), List.of("[us]"));
    expanded.put(time(4), List.of("[eu]"));
    expanded.put(time(5), List.of("[]", "[]")); // search-time team t1, t2, no region
    plain.put(time(1), List.of("[us]"));
    plain.put(time(2), List.of("[kv0]"));
    plain.put(time(3), List.of("[us]"));
    plain.put(time(4), List.of("[eu]"));
    plain.put(time(5), List.of("[]"));
    // after mvexpand the rows list what they carry (fast mode, issue 21): event 2's region is text
    // only, so it lists none — before, it showed kv0 where another row of its page held region
    Map<String, List<String>> expandedListed = new TreeMap<>(expanded);
    expandedListed.put(time(2), List.of("[]"));
    assertThat(byTime(EnginePages.rows(server, "* | mvexpand team"), "region"))
        .isEqualTo(expandedListed);
    assertThat(byTime(EnginePages.rows(server, "* | rename re* AS x* | mvexpand team"), "xgion"))
        .isEqualTo(expanded);
    assertThat(byTime(EnginePages.rows(server, "* | mvexpand team | rename re* AS x*"), "xgion"))
        .isEqualTo(expanded);
    // a plain listing lists a row's own index-time fields, not its search-time ones (Splunk's fast
    // mode; issue 21): event 2 holds region only as text, so it lists none — before, it showed
    // kv0 only because another event of its page held region at index time (a page-cut value)
    Map<String, List<String>> listed = new TreeMap<>(plain);
    listed.put(time(2), List.of("[]"));
    assertThat(byTime(EnginePages.rows(server, "*"), "region")).isEqualTo(listed);
    assertThat(byTime(EnginePages.rows(server, "* | rename re* AS x*"), "xgion")).isEqualTo(plain);
    assertThat(byTime(EnginePages.rows(server, "* | fillnull value=none"), "region"))
        .isEqualTo(withNone(plain));
    assertThat(
            byTime(EnginePages.rows(server, "* | rename re* AS x* | fillnull value=none"), "xgion"))
        .isEqualTo(withNone(plain));
  }

  private static Map<String, List<String>> withNone(Map<String, List<String>> plain) {
    Map<String, List<String>> filled = new TreeMap<>(plain);
    filled.put(time(5), List.of("[none]"));
    return filled;
  }

  private static String time(int i) {
    return "[" + (BASE + i) * 1_000_000L + "]";
  }

  private static Map<String, List<String>> byTime(List<String> rows, String name) {
    Map<String, List<String>> by = new TreeMap<>();
    for (String row : rows) {
      String time = EnginePages.cells(List.of(row), "_time").toString();
      by.computeIfAbsent(time, t -> new ArrayList<>())
          .add(EnginePages.cells(List.of(row), name).toString());
    }
    return by;
  }
}
