package io.quarry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link QuarryClient#close}: the connection a file region went on by {@code sendfile}, kept open
 * for the next one, is closed (the server sees its end) and no call is taken after. A bare HTTP/1.1
 * peer on 127.0.0.1 answers one request and then watches its connection.
 */
class QuarryClientCloseTest {
  @TempDir Path directory;

  @Test
  void closeClosesTheIdleSendfileConnection() throws Exception {
    Path file = directory.resolve("one.log");
    Files.writeString(file, "one line\n");
    try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      CompletableFuture<String> afterAnswer = new CompletableFuture<>();
      Thread.ofVirtual().start(() -> serveOnce(listener, afterAnswer));
      QuarryClient client =
          QuarryClient.builder(URI.create("http://127.0.0.1:" + listener.getLocalPort()))
              .hecToken("tok")
              .build();
      try (FileChannel channel = FileChannel.open(file)) {
        client.sendRaw(channel, 0, Files.size(file), "st", "main", null, "s");
        Thread.sleep(300);
        assertThat(afterAnswer).as("the connection is kept for the next region").isNotDone();
        client.close();
        assertThat(afterAnswer.get(5, TimeUnit.SECONDS))
            .as("what the server read after its answer")
            .isEqualTo("the end");
        assertThatThrownBy(() -> client.sendRaw(channel, 0, 1, "st", "main", null, "s"))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("closed");
        assertThatThrownBy(() -> client.search("x")).isInstanceOf(IllegalStateException.class);
      }
    }
  }

  /** Answers one request with 200 (keep-alive), then reads on: "the end" when the client closes. */
  private static void serveOnce(ServerSocket listener, CompletableFuture<String> afterAnswer) {
    try (Socket socket = listener.accept()) {
      InputStream in = new BufferedInputStream(socket.getInputStream());
      in.readNBytes(contentLength(in));
      socket
          .getOutputStream()
          .write(
              "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
                  .getBytes(StandardCharsets.ISO_8859_1));
      int next = in.read();
      afterAnswer.complete(next < 0 ? "the end" : "a byte: " + next);
    } catch (IOException e) {
      afterAnswer.complete("failed: " + e);
    }
  }

  /** Reads the request's head; its Content-Length. */
  private static int contentLength(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the request ended in its head");
      }
      head.write(b);
    }
    for (String line : head.toString(StandardCharsets.ISO_8859_1).split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        return Integer.parseInt(line.substring("content-length:".length()).trim());
      }
    }
    return 0;
  }
}
