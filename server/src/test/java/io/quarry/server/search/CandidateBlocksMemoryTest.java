package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.RunningServer;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The candidate blocks a segment's slices share ({@code codecs.store.LeafMatches}) are charged to
 * the search's memory (issue 21): {@value #EVENTS} events stored one a block (one segment of more
 * blocks than a slice takes, so its slices share them) searched with {@code search.maxMemoryBytes}
 * of {@value #LIMIT} bytes, less than the segment's bit set of one bit a block with its headers —
 * the search fails with 422 {@code MEMORY_LIMIT} naming the candidate blocks (before, the bit set
 * was held uncharged and the search went on to fail later or not at all), and it fails the same way
 * when asked again: the first failure left nothing charged behind.
 */
class CandidateBlocksMemoryTest {
  private static final String PASSWORD = "candidate-blocks-password";
  private static final long LIMIT = 80;
  private static final int EVENTS = 600;

  @RegisterExtension
  static final RunningServer SERVER = new RunningServer(PASSWORD, CandidateBlocksMemoryTest::start);

  private static QuarryServer start(Path data) throws Exception {
    QuarryServer server =
        TestServers.start(
            data,
            PASSWORD,
            settings -> settings.put("storage.blockEvents", 1).put("search.maxMemoryBytes", LIMIT));
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < EVENTS; i++) {
      lines.append("2026-01-07T10:00:00Z x=v").append(i % 7).append(" w").append(i % 3);
      lines.append('\n');
    }
    TestServers.loadRaw(server, lines.toString());
    TestServers.awaitCount(server, PASSWORD, "main", EVENTS, 100);
    return server;
  }

  @Test
  void overTheLimitTheSearchFailsNamingTheCandidateBlocks() throws Exception {
    for (int attempt = 0; attempt < 2; attempt++) {
      HttpResponse<String> over =
          TestServers.export(SERVER.server(), PASSWORD, "search index=main w1 | stats dc(x)");
      assertThat(over.statusCode()).as(over.body()).isEqualTo(422);
      assertThat(over.body())
          .contains("MEMORY_LIMIT")
          .contains(PageBatch.CANDIDATE_BLOCKS + " needs")
          .contains("search.maxMemoryBytes");
    }
  }
}
