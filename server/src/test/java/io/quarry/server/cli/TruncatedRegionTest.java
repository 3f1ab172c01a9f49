package io.quarry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.client.QuarryClient;
import io.quarry.client.QuarryClientException;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.HecToken;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review (session 34): a file region that ends past the file's end (the file was truncated after
 * the region was cut, e.g. by logrotate's copytruncate under {@code --follow}) is an error of the
 * client's own, known before any answer: it should fail at once. It waits instead for the read
 * timeout (the server waits for the rest of the body), and on a reused connection takes the local
 * failure for a stale connection and sends again, waiting a second time.
 */
class TruncatedRegionTest {
  @TempDir Path directory;

  @Test
  void aRegionPastTheFilesEndFailsAtOnce() throws Exception {
    try (QuarryServer server =
        QuarryServer.start(
            TestServers.settings(directory.resolve("data"), "pw")
                .put("indexes", List.of("main", "logs"))
                .put("hec.tokens", List.of(new HecToken("tok", "cli", "main", List.of("*"), null)))
                .build(),
            Clock.systemUTC())) {
      Path file = directory.resolve("cut.log");
      Files.writeString(file, "2026-01-01 00:00:00 kept line\n");
      long size = Files.size(file);
      QuarryClient client =
          QuarryClient.builder(URI.create(server.url()))
              .hecToken("tok")
              .timeout(Duration.ofSeconds(3))
              .build();
      try (FileChannel channel = FileChannel.open(file)) {
        client.sendRaw(channel, 0, size, "generic_single_line", "logs", null, "cut");
        long started = System.nanoTime();
        // cut when the file was longer: the region's end is past the file's end now
        assertThatThrownBy(
                () ->
                    client.sendRaw(
                        channel, 0, size + 4_096, "generic_single_line", "logs", null, "cut"))
            .isInstanceOf(QuarryClientException.class);
        double seconds = (System.nanoTime() - started) / 1e9;
        assertThat(seconds)
            .as("a region past the file's end fails without waiting for the server (3 s timeout)")
            .isLessThan(2.0);
      }
    }
  }
}
