package io.quarry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.client.QuarryClient;
import io.quarry.client.QuarryClientException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file truncated under {@code quarry ingest} (logrotate's copytruncate), against a real server: a
 * region cut before the truncation fails at once (no wait for an answer the server cannot give, no
 * second send), and {@code --follow} sends the lines written after it, checkpoints or not.
 */
class IngestTruncationTest {
  @TempDir Path directory;
  private IngestServer server;

  @BeforeEach
  void start() throws Exception {
    server = IngestServer.start(directory.resolve("data"));
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  @Test
  void aRegionPastTheFilesEndFailsAtOnce() throws Exception {
    Path file = directory.resolve("cut.log");
    Files.writeString(file, "2026-01-01 00:00:00 kept line\n");
    long size = Files.size(file);
    try (QuarryClient client =
            QuarryClient.builder(URI.create(server.url()))
                .hecToken("tok")
                .timeout(Duration.ofSeconds(3))
                .build();
        FileChannel channel = FileChannel.open(file)) {
      client.sendRaw(channel, 0, size, "generic_single_line", "logs", null, "cut");
      long started = System.nanoTime();
      // cut when the file was longer: the region's end is past the file's end now
      assertThatThrownBy(
              () ->
                  client.sendRaw(
                      channel, 0, size + 4_096, "generic_single_line", "logs", null, "cut"))
          .isInstanceOf(QuarryClientException.class)
          .hasMessageContaining("cannot read the file to send");
      double seconds = (System.nanoTime() - started) / 1e9;
      assertThat(seconds)
          .as("a region past the file's end fails without waiting for the server (3 s timeout)")
          .isLessThan(2.0);
    }
  }

  @Test
  void followSendsLinesWrittenAfterATruncation() throws Exception {
    follow("--checkpoints=" + directory.resolve("checkpoints.json"));
  }

  @Test
  void followSendsLinesWrittenAfterATruncationWithoutCheckpoints() throws Exception {
    follow("--no-resume");
  }

  private void follow(String resume) throws Exception {
    Path file = directory.resolve("rotated.log");
    Files.writeString(
        file,
        "2026-01-01 00:00:00 rotated old one padding padding\n"
            + "2026-01-01 00:00:01 rotated old two padding padding\n");
    Thread follower =
        new Thread(
            () ->
                QuarryCli.commandLine()
                    .execute(server.ingest(resume, "--follow", file.toString())));
    follower.start();
    try {
      await("index=logs rotated old", 2);
      Files.writeString(file, "2026-01-01 00:00:02 rotated new one\n"); // truncated, rewritten
      await("index=logs rotated new", 1);
    } finally {
      follower.interrupt();
      follower.join(10_000);
    }
  }

  private void await(String query, long expected) throws InterruptedException {
    long deadline = System.nanoTime() + 8_000_000_000L;
    long count;
    while ((count = server.count(query)) < expected && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    assertThat(count).as(query).isEqualTo(expected);
  }
}
