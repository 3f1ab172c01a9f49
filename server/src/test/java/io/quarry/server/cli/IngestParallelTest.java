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
 * {@code quarry ingest}'s requests in flight: by default twice the client's cores (at least 3, at
 * most 12), and more requests in flight than the server has ingest pipelines — each handed on while
 * its request waits for the log's fsync — store every line exactly once, on a real server with one
 * pipeline.
 */
class IngestParallelTest {
  @TempDir Path directory;

  @Test
  void byDefaultTwiceTheCoresAtLeastThreeAtMostTwelve() {
    assertThat(IngestCommand.defaultParallel(1)).isEqualTo(3);
    assertThat(IngestCommand.defaultParallel(2)).isEqualTo(4);
    assertThat(IngestCommand.defaultParallel(4)).isEqualTo(8);
    assertThat(IngestCommand.defaultParallel(6)).isEqualTo(12);
    assertThat(IngestCommand.defaultParallel(8)).isEqualTo(12);
    assertThat(IngestCommand.defaultParallel(64)).isEqualTo(12);
  }

  @Test
  void eightRequestsInFlightOnOnePipelineStoreEveryLineOnce() throws Exception {
    Path file = directory.resolve("app.log");
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 80_000; i++) {
      // ~210 bytes a line: five 4 MiB chunks
      text.append("2026-01-01 00:00:00 many line=").append(i).append(' ');
      text.append("y".repeat(180)).append('\n');
    }
    Files.writeString(file, text);
    try (QuarryServer server =
            QuarryServer.start(
                TestServers.settings(directory.resolve("data"), "pw")
                    .put("indexes", List.of("logs"))
                    .put("ingest.pipelines", 1)
                    .put(
                        "hec.tokens",
                        List.of(new HecToken("tok", "cli", "logs", List.of("*"), null)))
                    .build(),
                Clock.systemUTC());
        QuarryClient client =
            QuarryClient.builder(URI.create(server.url())).adminPassword("pw").build()) {
      int exit =
          QuarryCli.commandLine()
              .execute(
                  "ingest",
                  "--url=" + server.url(),
                  "--token=tok",
                  "--index=logs",
                  "--sourcetype=generic_single_line",
                  "--parallel=8",
                  "--no-resume",
                  file.toString());
      assertThat(exit).isZero();
      assertThat(
              client.search("index=logs many | stats count, dc(line) AS lines").rows().getFirst())
          .containsEntry("count", "80000")
          .containsEntry("lines", "80000");
    }
  }
}
