package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.client.IndexSummary;
import io.quarry.client.QuarryClient;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/v1/indexes} says where an index's deferred compaction stands: events loaded into
 * a running server wait for it, then the idle index is compacted (a merge done, nothing waiting)
 * and every event is still found once; the server says when one is due without more events.
 */
class IndexCompactionTest {
  @TempDir Path dataDirectory;

  @Test
  void anIdleIndexIsCompactedAndSaysSo() throws Exception {
    try (QuarryServer server = TestServers.start(dataDirectory, "pw")) {
      // more than the idle compaction's minimum (1 MiB of fast segments): random ids compress
      // little
      TestServers.loadRaw(server, randomLines(80_000));
      QuarryClient client =
          QuarryClient.builder(URI.create(server.url())).adminPassword("pw").build();
      assertThat(client.search("index=main | stats count", "0", null).rows().getFirst())
          .containsEntry("count", "80000");

      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      IndexSummary main = main(client);
      while (!(main.compacted() && main.compactions() > 0) && System.nanoTime() < deadline) {
        Thread.sleep(100);
        main = main(client);
      }
      assertThat(main.compactions()).as("%s", main).isPositive();
      assertThat(main.compactionPendingBytes()).isZero();
      assertThat(main.compacting()).isFalse();
      assertThat(main.compactionDue()).isFalse();
      assertThat(client.search("index=main | stats count", "0", null).rows().getFirst())
          .containsEntry("count", "80000");
    }
  }

  @Test
  void theServerSaysWhenACompactionIsDueWithoutMoreEvents() throws Exception {
    // an hour's idle time: the compaction the server says is due does not start while it is looked
    // at
    try (QuarryServer server =
        TestServers.start(
            dataDirectory,
            "pw",
            settings -> settings.put("storage.compaction.idleMillis", 3_600_000L))) {
      QuarryClient client =
          QuarryClient.builder(URI.create(server.url())).adminPassword("pw").build();
      TestServers.loadRaw(server, randomLines(10));
      IndexSummary few = main(client);
      assertThat(few.compactionDue())
          .as("10 events: under the idle minimum of 1 MiB, they wait for more or the roll: %s", few)
          .isFalse();
      assertThat(few.compacted()).isTrue();

      TestServers.loadRaw(server, randomLines(80_000)); // more than 1 MiB of fast bytes
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      IndexSummary many = main(client);
      while (!many.compactionDue() && System.nanoTime() < deadline) {
        Thread.sleep(100);
        many = main(client);
      }
      assertThat(many.compactionDue()).as("%s", many).isTrue();
      assertThat(many.compacting()).isFalse();
      assertThat(many.compactions()).isZero();
      assertThat(many.compacted()).isFalse();
    }
  }

  /** Lines of random ids (which compress little), sent raw. */
  private static String randomLines(int count) {
    java.util.Random random = new java.util.Random(33);
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < count; i++) {
      lines.append("line ").append(i).append(" status=200 id=");
      lines.append(Long.toHexString(random.nextLong())).append('\n');
    }
    return lines.toString();
  }

  private static IndexSummary main(QuarryClient client) throws Exception {
    return client.indexes().stream()
        .filter(index -> index.name().equals("main"))
        .findFirst()
        .orElseThrow();
  }
}
