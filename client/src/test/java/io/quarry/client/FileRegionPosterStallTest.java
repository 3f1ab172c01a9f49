package io.quarry.client;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review (session 34): a server that stops reading (stalled, wedged) must not hold {@code sendfile}
 * for good: the client's {@code timeout} bounds the body's write as the JDK client's request
 * timeout does on the array path. A peer on 127.0.0.1 accepts and never reads.
 */
class FileRegionPosterStallTest {
  private static final byte[] BODY =
      "x".repeat(99).concat("\n").repeat(160_000).getBytes(); // 16 MB

  @TempDir Path directory;

  @Test
  void aServerThatStopsReadingFailsTheSendWithinTheTimeout() throws Exception {
    Path file = directory.resolve("big.log");
    Files.write(file, BODY);
    try (ServerSocket listener = silentPeer();
        FileChannel channel = FileChannel.open(file)) {
      QuarryClient client = client(listener);
      assertTimeoutPreemptively(
          Duration.ofSeconds(15),
          () ->
              assertThatThrownBy(
                      () -> client.sendRaw(channel, 0, channel.size(), "st", "main", null, "s"))
                  .isInstanceOf(QuarryClientException.class),
          "a 2 s client timeout: the send must end well within 15 s");
    }
  }

  /** The same peer against the array path (the JDK client): its request timeout ends the send. */
  @Test
  void theJdkClientPathTimesOut() throws Exception {
    try (ServerSocket listener = silentPeer()) {
      QuarryClient client = client(listener);
      assertTimeoutPreemptively(
          Duration.ofSeconds(15),
          () ->
              assertThatThrownBy(() -> client.sendRaw(BODY, "st", "main", null, "s"))
                  .isInstanceOf(QuarryClientException.class));
    }
  }

  private static QuarryClient client(ServerSocket listener) {
    return QuarryClient.builder(URI.create("http://127.0.0.1:" + listener.getLocalPort()))
        .hecToken("tok")
        .timeout(Duration.ofSeconds(2))
        .build();
  }

  /** A listener whose one connection is accepted and never read; closing it ends the peer. */
  private static ServerSocket silentPeer() throws Exception {
    ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    listener.setReceiveBufferSize(64 * 1024);
    Thread.ofVirtual()
        .start(
            () -> {
              try (Socket accepted = listener.accept()) {
                Thread.sleep(30_000); // never reads
              } catch (Exception e) {
                // done
              }
            });
    return listener;
  }
}
