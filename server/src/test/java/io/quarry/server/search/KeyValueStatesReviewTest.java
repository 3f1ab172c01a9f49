package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.sourcetype.SourcetypeSettings;
import io.quarry.server.sourcetype.SourcetypeSettings.IndexExtractionSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review (session 41, reviewer A) of the fused key=value states path ({@link KeyValueStates}): its
 * answers against the page path (the same search with a page stage before {@code stats}) where the
 * lane's own test does not go — sourcetypes whose extraction is not plain automatic key=value
 * ({@code kvMode: none}, {@code json}, a {@code searchExtractions} regex naming the field, an
 * index-time extraction of the field that some lines miss and some read differently), and a table
 * filled by long keys met once (the arena's 4 MiB), which hands the table on mid-slice and sends
 * the rest of the slice to the page path ({@code handOnFull}, {@code paged}) — both layouts.
 */
class KeyValueStatesReviewTest {
  private static final String PASSWORD = "kv-review-pw";
  private static final int LONG_KEYS = 9_000;
  private static final List<String> SOURCETYPES =
      List.of("kvnone", "js", "ext", "idx", "app", "long");

  @TempDir static Path dataDirectory;
  @AutoClose private static QuarryServer server;

  private static SourcetypeSettings settings(
      List<IndexExtractionSettings> index, List<String> search, String kvMode) {
    return new SourcetypeSettings(
        null, null, null, null, null, null, null, null, null, null, index, null, search, kvMode);
  }

  private static String time(int i) {
    return String.format("2026-01-01 %02d:%02d:%02d ", i / 3600 % 24, i / 60 % 60, i % 60);
  }

  @BeforeAll
  static void start() throws Exception {
    Map<String, String> formats = new java.util.HashMap<>();
    for (String sourcetype : SOURCETYPES) {
      formats.put("e" + sourcetype, "events");
      formats.put("b" + sourcetype, "blocks");
    }
    List<String> indexes = new ArrayList<>(new java.util.TreeSet<>(formats.keySet()));
    var sourcetypes =
        Map.of(
            "kvnone", settings(null, null, "none"),
            "js", settings(null, null, "json"),
            "ext", settings(null, List.of("sid=(?<JSESSIONID>\\w+)"), null),
            "idx",
                settings(
                    List.of(
                        new IndexExtractionSettings(
                            "regex", "JSESSIONID=(?<JSESSIONID>[^&\\s\"]+)")),
                    null,
                    null));
    server =
        TestServers.startIndexes(
            dataDirectory,
            PASSWORD,
            TestServers.TOKEN,
            indexes,
            TestServers.storage(formats),
            settings -> settings.put("sourcetypes", sourcetypes));
    for (String layout : List.of("e", "b")) {
      for (String sourcetype : SOURCETYPES.subList(0, 5)) {
        String index = layout + sourcetype;
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 900; i++) {
          String text =
              switch (i % 3) {
                case 0 -> "JSESSIONID=A" + (i % 7) + " sid=B" + (i % 5);
                case 1 -> "JSESSIONID=\"q " + (i % 4) + "\" x=1"; // no index-time value
                default -> "JSESSIONID=C" + (i % 6) + ",D" + (i % 3) + " y=2"; // "C0,D0" indexed
              };
          lines.append(time(i)).append(text).append('\n');
        }
        var loaded =
            TestServers.postRaw(server, TestServers.TOKEN, sourcetype, index, lines.toString());
        assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
      }
      // 6,000 long keys met once: the table's arena (4 MiB) fills after ~4,170 of them
      StringBuilder lines = new StringBuilder();
      String pad = "k".repeat(1_000);
      for (int i = 0; i < LONG_KEYS; i++) {
        String key = i % 3 == 0 ? "R" + (i % 10) : "U" + i + pad;
        lines.append(time(i)).append("GET /a?JSESSIONID=").append(key).append(" HTTP\n");
      }
      var loaded =
          TestServers.postRaw(server, TestServers.TOKEN, "app", layout + "long", lines.toString());
      assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
    }
  }

  private static final String STATS =
      " | stats count, min(_time) AS first, max(_time) AS last, range(_time) by JSESSIONID";

  private static List<JsonNode> results(String search) throws Exception {
    return EventRunSearchTest.results(server, PASSWORD, search);
  }

  private static long aggregated(String search) throws Exception {
    return FusedScanFixtures.scanCount(server, PASSWORD, search, "eventsAggregatedByKeyValue");
  }

  @Test
  void sourcetypesNotReadAsPlainPairsAnswerAsThePagePath() throws Exception {
    List<String> failures = new ArrayList<>();
    for (String layout : List.of("e", "b")) {
      for (String sourcetype : SOURCETYPES.subList(0, 5)) {
        String index = layout + sourcetype;
        String search = "index=" + index;
        List<JsonNode> fused = results(search + STATS);
        List<JsonNode> paged = results(search + " | eval unused=1" + STATS);
        if (!fused.equals(paged)) {
          failures.add(index + ": fused " + fused + " vs pages " + paged);
        }
        if (sourcetype.equals("app")) {
          assertThat(aggregated(search + STATS)).as("the fused path ran").isPositive();
        } else if (layout.equals("b")) {
          // a block of one sourcetype that does not leave the field to plain pairs: every event
          // to the page path (checked once per run since session 46, per event before)
          assertThat(aggregated(search + STATS)).as(index + ": none fused").isZero();
        }
      }
    }
    assertThat(failures).isEmpty();
  }

  @Test
  void longKeysMetOnceFillTheTableAndTheRestGoesToPagesWithTheSameAnswer() throws Exception {
    for (String index : List.of("elong", "blong")) {
      String search = "index=" + index;
      List<JsonNode> fused = results(search + STATS);
      assertThat(fused).hasSize(10 + LONG_KEYS * 2 / 3);
      assertThat(fused).as(index).isEqualTo(results(search + " | eval unused=1" + STATS));
      long byScan = aggregated(search + STATS);
      assertThat(byScan).as(index + ": the fused path ran, then handed the rest on").isPositive();
      assertThat(byScan).as(index + ": the fallback to pages ran").isLessThan(LONG_KEYS);
    }
  }

  /**
   * In blocks, an index whose sourcetype extracts the field at index time (the benchmark's {@code
   * sessions_range_indexed} layout) sends every block to the page path ({@code run.mayHaveField});
   * the plan cannot know the index's sourcetypes, so explain names the fused path with where it
   * runs — blocks with no index-time value — not as if every event took it.
   */
  @Test
  void explainSaysWhereTheFusedPathRunsWhereNoEventTakesIt() throws Exception {
    String search = "index=bidx" + STATS;
    assertThat(aggregated(search)).as("no event aggregated by the scan").isZero();
    assertThat(server.search().explain(server.search().plan(search, null, null)))
        .containsEntry("aggregated_by_key_value", "JSESSIONID")
        .containsEntry("aggregated_by_key_value_where", KeyValueStates.WHERE);
  }
}
