package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * What the tests of the scans that answer events themselves ({@link RexCounting}, {@link
 * KeyValueStates}) share: loading the same lines into both layouts of {@link
 * TestServers#startLayouts} (the event layout {@code ev} and blocks {@code bl}), the stage that
 * keeps a search on the page path, and the job's counter of the events a scan answered.
 */
final class FusedScanFixtures {
  /** Both layouts' indexes, as {@link TestServers#startLayouts} makes them. */
  static final List<String> LAYOUTS = List.of("ev", "bl");

  /** A stage before the aggregation that keeps the search on the page path (nothing fused). */
  static final String PAGE_STAGE = " | eval unused=1";

  /** The memory tests' distinct keys ({@link #startWithPaddedKeys}). */
  static final int PADDED_KEYS = 3_000;

  private FusedScanFixtures() {}

  /**
   * The memory tests' server: both layouts, search.maxMemoryBytes at 2 MiB, loaded with {@value
   * #PADDED_KEYS} lines {@code from <before><i><300 p's> took=3}: as many distinct keys of ~306
   * bytes, a table of ~1.2 MB in the scan (an arena of 1 MiB) and as much again in the groups.
   */
  static QuarryServer startWithPaddedKeys(Path root, String password, String before)
      throws Exception {
    QuarryServer server =
        TestServers.startLayouts(
            root.resolve("data"),
            password,
            TestServers.TOKEN,
            settings -> settings.put("search.maxMemoryBytes", 2L << 20));
    StringBuilder lines = new StringBuilder();
    String pad = "p".repeat(300);
    for (int i = 0; i < PADDED_KEYS; i++) {
      lines.append("2026-01-07T10:00:00Z from ").append(before).append(i).append(pad);
      lines.append(" took=3\n");
    }
    loadLayouts(server, lines.toString());
    return server;
  }

  /** Posts {@code lines} as sourcetype {@code app} into {@code index}; answered 200. */
  static void load(QuarryServer server, String index, String lines) throws Exception {
    var loaded = TestServers.postRaw(server, TestServers.TOKEN, "app", index, lines);
    assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
  }

  /** Posts {@code lines} into every index of {@link #LAYOUTS}. */
  static void loadLayouts(QuarryServer server, String lines) throws Exception {
    for (String index : LAYOUTS) {
      load(server, index, lines);
    }
  }

  /**
   * Lines {@code 0 … count - 1} ({@code line}) into both layouts, in two posts — those {@code
   * mixed} says, then the others — each shuffled with {@code seed}: blocks of both kinds, texts out
   * of time order.
   */
  static void loadShuffled(
      QuarryServer server, int count, IntPredicate mixed, long seed, IntFunction<String> line)
      throws Exception {
    List<Integer> plain = new ArrayList<>();
    List<Integer> other = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      (mixed.test(i) ? other : plain).add(i);
    }
    Random random = new Random(seed);
    Collections.shuffle(plain, random);
    Collections.shuffle(other, random);
    String plainLines = EventRunSearchTest.lines(plain, line);
    String otherLines = EventRunSearchTest.lines(other, line);
    for (String index : LAYOUTS) { // the same lines in both layouts
      load(server, index, plainLines);
      load(server, index, otherLines);
    }
  }

  /**
   * The job's scan counter {@code counter} ({@code eventsCountedByRex}, {@code
   * eventsAggregatedByKeyValue}) for {@code search}, which must report it.
   */
  static long scanCount(QuarryServer server, String password, String search, String counter)
      throws Exception {
    JsonNode inspect = EventRunSearchTest.inspect(server, password, search);
    JsonNode counted = inspect.at("/costs/scan/" + counter);
    assertThat(counted.isNumber()).as(inspect.toString()).isTrue();
    return counted.asLong();
  }
}
