package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
 * The table-level judgement of the fused key=value path ({@link KeyStateTables#judge}) over a store
 * of several slices (131,072 events each) in blocks: a field unique per event sends the rest of the
 * search to the page path once a table has judged {@value KeyStateTables#JUDGED_AFTER} keyed events
 * (most events are then not in {@code eventsAggregatedByKeyValue}), while a field of 1,000 values
 * spread over every slice stays fused throughout; both answer as the page path.
 */
class KeyValueStatesUniqueKeysTest {
  private static final String PASSWORD = "kv-unique-pw";
  private static final int EVENTS = 360_000;
  private static final int REPEATED = 1_000;

  @TempDir static Path dataDirectory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestServers.startIndexes(
            dataDirectory,
            PASSWORD,
            TestServers.TOKEN,
            List.of("uniq"),
            TestServers.storage(Map.of("uniq", "blocks")),
            settings -> settings);
    for (int from = 0; from < EVENTS; from += 60_000) {
      StringBuilder lines = new StringBuilder();
      for (int i = from; i < from + 60_000; i++) {
        lines
            .append(String.format("2026-01-01 %02d:%02d:%02d ", i / 3600 % 24, i / 60 % 60, i % 60))
            .append("uid=U")
            .append(i)
            .append(" rep=R")
            .append(i % REPEATED)
            .append('\n');
      }
      FusedScanFixtures.load(server, "uniq", lines.toString());
    }
  }

  private static long aggregated(String search) throws Exception {
    return FusedScanFixtures.scanCount(server, PASSWORD, search, "eventsAggregatedByKeyValue");
  }

  @Test
  void aUniqueFieldGoesMostlyToPagesWithTheSameAnswer() throws Exception {
    String search = "index=uniq | stats count, range(_time) by uid";
    long byScan = aggregated(search);
    assertThat(byScan).as("the fused path ran until a table judged").isPositive();
    assertThat(byScan).as("the rest of the search went to pages").isLessThan(EVENTS / 2);
    List<JsonNode> fused = EventRunSearchTest.results(server, PASSWORD, search + " | stats count");
    assertThat(fused.get(0).get("count").asLong()).isEqualTo(EVENTS);
  }

  @Test
  void aRepeatingFieldOverEverySliceStaysFused() throws Exception {
    String search = "index=uniq | stats count, range(_time) by rep";
    assertThat(aggregated(search)).isEqualTo(EVENTS);
    List<JsonNode> fused = EventRunSearchTest.results(server, PASSWORD, search);
    assertThat(fused).hasSize(REPEATED);
    assertThat(fused)
        .isEqualTo(
            EventRunSearchTest.results(
                server, PASSWORD, "index=uniq | eval unused=1 | stats count, range(_time) by rep"));
    for (JsonNode row : fused) {
      assertThat(row.get("count").asLong()).isEqualTo(EVENTS / REPEATED);
    }
  }
}
