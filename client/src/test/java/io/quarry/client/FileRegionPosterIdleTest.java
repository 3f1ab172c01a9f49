package io.quarry.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FileRegionPoster} reuses a kept connection only while it has been idle less than {@link
 * FileRegionPoster#MAX_IDLE_NANOS}: one idle about as long as the server's idle timeout may be
 * closed by the server while the next request is on its way, and that request, gone whole, is never
 * sent again ({@code quarry ingest --follow} polling every second against a server closing idle
 * connections after one failed so in CI). A bare HTTP/1.1 peer kept alive ({@link
 * BarePeer#keepAlive}) counts the connections the requests came on.
 */
class FileRegionPosterIdleTest {
  @TempDir Path directory;

  @Test
  void aConnectionIdleLongerThanTheLimitIsNotReused() throws Exception {
    assertThat(connectionsForTwoRequests(FileRegionPoster.MAX_IDLE_NANOS / 1_000_000 + 300))
        .as("the second request after a long idle goes on a new connection")
        .isEqualTo(2);
  }

  @Test
  void aConnectionIdleBrieflyIsReused() throws Exception {
    assertThat(connectionsForTwoRequests(20))
        .as("back-to-back requests share the kept connection")
        .isEqualTo(1);
  }

  /** Sends two bodies {@code pauseMillis} apart; returns the connections the peer accepted. */
  private int connectionsForTwoRequests(long pauseMillis) throws Exception {
    try (BarePeer peer = new BarePeer()) {
      peer.keepAlive((request, body) -> BarePeer.Reply.ok("{\"text\":\"Success\",\"code\":0}"));
      Path file = directory.resolve("two.log");
      Files.writeString(file, "first line\nsecond line\n");
      QuarryClient client = QuarryClient.builder(peer.uri()).hecToken("tok").build();
      try (FileChannel channel = FileChannel.open(file)) {
        client.sendRaw(channel, 0, 11, "st", "main", null, "s");
        Thread.sleep(pauseMillis);
        client.sendRaw(channel, 11, 12, "st", "main", null, "s");
      } finally {
        client.close();
      }
      assertThat(peer.bodies()).containsExactly("first line\n", "second line\n");
      return peer.connections();
    }
  }
}
