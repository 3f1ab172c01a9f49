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
 * Review (session 34): {@link FileRegionPoster} sends a request a second time when the server took
 * it whole and began answering on a reused connection, then the connection broke: the server stored
 * the body and gets it again (a duplicate). A bare HTTP/1.1 peer on 127.0.0.1 plays a server that
 * dies mid-answer (no Quarry server can be made to do that on purpose).
 */
class FileRegionPosterRetryTest {
  @TempDir Path directory;

  @Test
  void aRequestWhoseAnswerWasCutIsNotSentAgain() throws Exception {
    List<String> bodies = new CopyOnWriteArrayList<>();
    AtomicInteger requests = new AtomicInteger();
    try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread peer =
          Thread.ofVirtual()
              .start(
                  () -> {
                    while (!listener.isClosed()) {
                      try {
                        Socket socket = listener.accept();
                        Thread.ofVirtual().start(() -> serve(socket, bodies, requests));
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
        client.sendRaw(channel, 0, 11, "st", "main", null, "s"); // answered: the connection kept
        try {
          // the server reads the whole request (it stores it), starts the answer and dies
          client.sendRaw(channel, 11, 12, "st", "main", null, "s");
        } catch (QuarryClientException reported) {
          // reporting the failure is right: the checkpoint then leaves the chunk for a re-run
        }
      }
      listener.close();
      peer.join(5_000);
    }
    assertThat(bodies)
        .as("the second request, stored once by the server, must not be sent again")
        .containsExactly("first line\n", "second line\n");
  }

  /** Reads requests off one connection; the second request overall gets half an answer. */
  private static void serve(Socket socket, List<String> bodies, AtomicInteger requests) {
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
        if (requests.incrementAndGet() == 2) {
          out.write("HTTP/1.1 200 OK\r\nContent-Length: 27\r\n\r\n{\"te".getBytes());
          out.flush();
          return; // the connection dies mid-answer
        }
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
