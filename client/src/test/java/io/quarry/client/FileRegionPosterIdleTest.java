package io.quarry.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FileRegionPoster} reuses a kept connection only while it has been idle less than {@link
 * FileRegionPoster#MAX_IDLE_NANOS}: one idle about as long as the server's idle timeout may be
 * closed by the server while the next request is on its way, and that request, gone whole, is never
 * sent again ({@code quarry ingest --follow} polling every second against a server closing idle
 * connections after one failed so in CI). A bare HTTP/1.1 peer on 127.0.0.1 counts the connections
 * the requests came on.
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
    List<String> bodies = new CopyOnWriteArrayList<>();
    AtomicInteger connections = new AtomicInteger();
    try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread peer =
          Thread.ofVirtual()
              .start(
                  () -> {
                    while (!listener.isClosed()) {
                      try {
                        Socket socket = listener.accept();
                        connections.incrementAndGet();
                        Thread.ofVirtual().start(() -> serve(socket, bodies));
                      } catch (IOException closed) {
                        return;
                      }
                    }
                  });
      Path file = directory.resolve("two.log");
      Files.writeString(file, "first line\nsecond line\n");
      QuarryClient client =
          QuarryClient.builder(URI.create("http://127.0.0.1:" + listener.getLocalPort()))
              .hecToken("tok")
              .build();
      try (FileChannel channel = FileChannel.open(file)) {
        client.sendRaw(channel, 0, 11, "st", "main", null, "s");
        Thread.sleep(pauseMillis);
        client.sendRaw(channel, 11, 12, "st", "main", null, "s");
      } finally {
        client.close();
      }
      listener.close();
      peer.join(5_000);
    }
    assertThat(bodies).containsExactly("first line\n", "second line\n");
    return connections.get();
  }

  /** Answers every request on one connection until the client closes it. */
  private static void serve(Socket socket, List<String> bodies) {
    try (socket) {
      InputStream in = new BufferedInputStream(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      while (true) {
        int length = -1;
        String line;
        boolean any = false;
        while (!(line = line(in)).isEmpty()) {
          any = true;
          if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
            length = Integer.parseInt(line.substring(15).strip());
          }
        }
        if (!any) {
          return;
        }
        bodies.add(new String(in.readNBytes(length), StandardCharsets.ISO_8859_1));
        String ok = "{\"text\":\"Success\",\"code\":0}";
        out.write(
            ("HTTP/1.1 200 OK\r\nContent-Length: " + ok.length() + "\r\n\r\n" + ok).getBytes());
        out.flush();
      }
    } catch (IOException e) {
      // the client went away
    }
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.ISO_8859_1);
  }
}
