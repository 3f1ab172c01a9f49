package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * What the tests of the scans that answer events themselves ({@link RexCounting}, {@link
 * KeyValueStates}) share: loading the same lines into both layouts of {@link
 * TestServers#startLayouts} (the event layout {@code ev} and blocks {@code bl}), the stage that
 * keeps a search on the page path, what {@code explain} says the scan aggregates, a search run on
 * an account of the test's own, and the job's counter of the events a scan answered.
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

  /**
   * A server of both layouts ({@link TestServers#startLayouts}, no sourcetype of its own) loaded
   * with lines {@code 0 … count - 1} ({@code line}: a line's text without its end) into each.
   */
  static QuarryServer startLoaded(
      Path dataDirectory, String password, int count, IntFunction<String> line) throws Exception {
    QuarryServer server =
        TestServers.startLayouts(dataDirectory, password, TestServers.TOKEN, Map.of());
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < count; i++) {
      lines.append(line.apply(i)).append('\n');
    }
    loadLayouts(server, lines.toString());
    return server;
  }

  /** Asserts that {@code explain} names the scan as aggregating each search by {@code field}. */
  static void assertAggregatedByKeyValue(QuarryServer server, List<String> searches, String field)
      throws Exception {
    for (String search : searches) {
      assertThat(server.search().explain(server.search().plan(search, null, null)))
          .as(search)
          .containsEntry("aggregated_by_key_value", field);
    }
  }

  /**
   * Runs {@code search} on {@code server}'s search service, steered by {@code control}, its pages
   * to {@code pages} and its operators' memory on {@code account} (a test's own: no breaker, what
   * the search left held stays visible), within a minute.
   */
  static SearchStats run(
      QuarryServer server,
      String search,
      SearchControl control,
      Consumer<Page> pages,
      MemoryAccount account)
      throws Exception {
    return server
        .search()
        .run(
            search,
            server.search().plan(search, null, null),
            Duration.ofMinutes(1),
            control,
            pages,
            account);
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
