package io.quarry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.client.QuarryClient;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.HecToken;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review (session 34; behaviour older than the sendfile path): {@code quarry ingest --follow}
 * restarts a truncated file from offset 0, but the checkpoints still hold the old content's ranges
 * under the key taken at the start, so the new lines up to the old length count as acknowledged and
 * are never sent (logrotate's copytruncate).
 */
class FollowTruncatedTest {
  @TempDir Path directory;

  @Test
  void linesWrittenAfterATruncationAreSent() throws Exception {
    follow("--checkpoints=" + directory.resolve("checkpoints.json"));
  }

  /** The same without checkpoints passes: they are what drops the lines. */
  @Test
  void linesWrittenAfterATruncationAreSentWithoutCheckpoints() throws Exception {
    follow("--no-resume");
  }

  private void follow(String resume) throws Exception {
    try (QuarryServer server =
        QuarryServer.start(
            TestServers.settings(directory.resolve("data"), "pw")
                .put("indexes", List.of("main", "logs"))
                .put("hec.tokens", List.of(new HecToken("tok", "cli", "main", List.of("*"), null)))
                .build(),
            Clock.systemUTC())) {
      QuarryClient search =
          QuarryClient.builder(URI.create(server.url())).adminPassword("pw").build();
      Path file = directory.resolve("rotated.log");
      Files.writeString(
          file,
          "2026-01-01 00:00:00 rotated old one padding padding\n"
              + "2026-01-01 00:00:01 rotated old two padding padding\n");
      Thread follower =
          new Thread(
              () ->
                  QuarryCli.commandLine()
                      .execute(
                          "ingest",
                          "--url=" + server.url(),
                          "--token=tok",
                          "--index=logs",
                          "--sourcetype=generic_single_line",
                          resume,
                          "--follow",
                          file.toString()));
      follower.start();
      try {
        await(search, "index=logs rotated old", 2);
        Files.writeString(file, "2026-01-01 00:00:02 rotated new one\n"); // truncated, rewritten
        await(search, "index=logs rotated new", 1);
      } finally {
        follower.interrupt();
        follower.join(10_000);
      }
    }
  }

  private static void await(QuarryClient search, String query, long expected)
      throws InterruptedException {
    long deadline = System.nanoTime() + 8_000_000_000L;
    long count;
    while ((count = count(search, query)) < expected && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    assertThat(count).as(query).isEqualTo(expected);
  }

  private static long count(QuarryClient search, String query) {
    return Long.parseLong(search.search(query + " | stats count").rows().get(0).get("count"));
  }
}
