package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table a scan counts a {@code rex}'s field in ({@link RexCounting}, {@link BytesCounts}) is
 * under the search's memory limit, on a real server with search.maxMemoryBytes at 2 MiB: 3,000
 * distinct values of 306 bytes fill a table of ~1.2 MB (an arena of 1 MiB, 4,096 slots of 32 B)
 * that the partial's groups (~1.2 MB more) join when the slice hands its counts on — over the limit
 * together, the typed memory error naming the aggregation (without the table charged, the search
 * answered). A field of one value under the same limit is counted in the scan and answered. Both
 * layouts.
 */
class RexCountingMemoryTest {
  private static final String PASSWORD = "rex-memory-password";
  private static final String REX = " | rex \"from (?<k>\\S+)\" | stats count by k";
  private static final String ONE = " | rex \"took=(?<t>\\S+)\" | stats count by t";
  private static final int KEYS = FusedScanFixtures.PADDED_KEYS;
  private static final List<String> INDEXES = FusedScanFixtures.LAYOUTS;

  @TempDir static Path root;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = FusedScanFixtures.startWithPaddedKeys(root, PASSWORD, "k");
  }

  @Test
  void theTableAndTheGroupsTogetherOverTheLimitFailTheSearchNamingTheAggregation()
      throws Exception {
    for (String index : INDEXES) {
      HttpResponse<String> counted = TestServers.export(server, PASSWORD, "index=" + index + REX);
      assertThat(counted.statusCode()).as(index + ": " + counted.body()).isEqualTo(422);
      assertThat(counted.body())
          .contains("MEMORY_LIMIT")
          .contains("stats needs")
          .contains("search.maxMemoryBytes");
    }
  }

  @Test
  void aFieldOfOneValueIsCountedInTheScanUnderTheSameLimit() throws Exception {
    for (String index : INDEXES) {
      HttpResponse<String> counted = TestServers.export(server, PASSWORD, "index=" + index + ONE);
      assertThat(counted.statusCode()).as(counted.body()).isEqualTo(200);
      assertThat(counted.body()).contains("\"t\":\"3\"").contains("\"count\":\"" + KEYS + "\"");
      assertThat(
              FusedScanFixtures.scanCount(
                  server, PASSWORD, "index=" + index + ONE, "eventsCountedByRex"))
          .as("counted by the scan itself")
          .isEqualTo(KEYS);
    }
  }
}
