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
 * Review (session 34): a server that stops reading (stalled, wedged) leaves {@code sendfile}
 * blocked with no timeout: the client's {@code timeout} bounds only the answer's reads, where the
 * JDK client's request timeout bounded the whole exchange. A peer on 127.0.0.1 accepts and never
 * reads.
 */
class FileRegionPosterStallTest {
  @TempDir Path directory;

  @Test
  void aServerThatStopsReadingFailsTheSendWithinTheTimeout() throws Exception {
    Path file = directory.resolve("big.log");
    Files.write(file, "x".repeat(99).concat("\n").repeat(160_000).getBytes()); // 16 MB
    try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      listener.setReceiveBufferSize(64 * 1024);
      Thread peer =
          Thread.ofVirtual()
              .start(
                  () -> {
                    try (Socket accepted = listener.accept()) {
                      Thread.sleep(60_000); // never reads
                    } catch (Exception e) {
                      // done
                    }
                  });
      QuarryClient client =
          QuarryClient.builder(URI.create("http://127.0.0.1:" + listener.getLocalPort()))
              .hecToken("tok")
              .timeout(Duration.ofSeconds(2))
              .build();
      try (FileChannel channel = FileChannel.open(file)) {
        assertTimeoutPreemptively(
            Duration.ofSeconds(15),
            () ->
                assertThatThrownBy(
                        () -> client.sendRaw(channel, 0, channel.size(), "st", "main", null, "s"))
                    .isInstanceOf(QuarryClientException.class),
            "a 2 s client timeout: the send must end well within 15 s");
      }
      peer.interrupt();
    }
  }

  /** The same peer against the array path (the JDK client): its request timeout ends the send. */
  @Test
  void theJdkClientPathTimesOut() throws Exception {
    byte[] body = "x".repeat(99).concat("\n").repeat(160_000).getBytes();
    try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      listener.setReceiveBufferSize(64 * 1024);
      Thread peer =
          Thread.ofVirtual()
              .start(
                  () -> {
                    try (Socket accepted = listener.accept()) {
                      Thread.sleep(60_000); // never reads
                    } catch (Exception e) {
                      // done
                    }
                  });
      QuarryClient client =
          QuarryClient.builder(URI.create("http://127.0.0.1:" + listener.getLocalPort()))
              .hecToken("tok")
              .timeout(Duration.ofSeconds(2))
              .build();
      assertTimeoutPreemptively(
          Duration.ofSeconds(15),
          () ->
              assertThatThrownBy(() -> client.sendRaw(body, "st", "main", null, "s"))
                  .isInstanceOf(QuarryClientException.class));
      peer.interrupt();
    }
  }
}
