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
 * Review (session 41, reviewer A): the fused key=value states ({@link KeyValueStates}, {@link
 * KeyStateTables}) under search.maxMemoryBytes at 2 MiB, against the page path of the same search
 * (a page stage before {@code stats}): 3,000 distinct keys of 306 bytes (RexCountingMemoryTest's
 * data, as key=value). Whatever the fused path holds must not make a search fail that the page path
 * answers under the same limit.
 */
class KeyValueStatesMemoryReviewTest {
  private static final String PASSWORD = "kv-memory-review-pw";
  private static final String STATS = " | stats count, range(_time) by k";
  private static final List<String> INDEXES = FusedScanFixtures.LAYOUTS;

  @TempDir static Path root;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = FusedScanFixtures.startWithPaddedKeys(root, PASSWORD, "k=k");
  }

  @Test
  void theFusedPathAnswersWhereThePagePathAnswers() throws Exception {
    for (String index : INDEXES) {
      HttpResponse<String> paged =
          TestServers.export(
              server, PASSWORD, "index=" + index + FusedScanFixtures.PAGE_STAGE + STATS);
      HttpResponse<String> fused = TestServers.export(server, PASSWORD, "index=" + index + STATS);
      assertThat(fused.statusCode() + " " + fused.body().substring(0, 300))
          .as(index + ": the page path answered " + paged.statusCode())
          .startsWith(paged.statusCode() + " ");
    }
  }
}
