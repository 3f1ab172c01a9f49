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
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Review (session 35, review-b): {@link QuarryClient#close} says a call under way ends (and the
 * README that only idle connections close). A bare HTTP/1.1 peer holds its answer until the client
 * has been closed: a search waiting for it and a result stream half read still get the rest, and a
 * file region sent by {@code sendfile} ends and its connection is not kept (the peer sees its end).
 */
class QuarryClientCloseInFlightTest {

  @Test
  void aSearchWaitingForItsAnswerWhenTheClientClosesGetsIt() throws Exception {
    CountDownLatch closed = new CountDownLatch(1);
    try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread.ofVirtual()
          .start(
              () ->
                  answerAfter(
                      listener,
                      closed,
                      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n",
                      null,
                      "{\"preview\":false,\"offset\":0,\"lastrow\":true,\"result\":{\"n\":\"1\"}}\n"));
      QuarryClient client =
          QuarryClient.builder(URI.create("http://127.0.0.1:" + listener.getLocalPort()))
              .adminPassword("pw")
              .retries(1)
              .build();
      CompletableFuture<Object> search = new CompletableFuture<>();
      Thread.ofVirtual()
          .start(
              () -> {
                try {
                  search.complete(client.search("x").rows());
                } catch (Throwable e) {
                  search.complete(e);
                }
              });
      Thread.sleep(500); // the request is sent and waits for the answer
      assertThat(search).isNotDone();
      client.close();
      closed.countDown();
      assertThat(search.get(10, TimeUnit.SECONDS))
          .as("the search under way when the client closed")
          .isEqualTo(java.util.List.of(java.util.Map.of("n", "1")));
    }
  }

  @Test
  void aStreamHalfReadWhenTheClientClosesReadsOn() throws Exception {
    CountDownLatch closed = new CountDownLatch(1);
    String first =
        "{\"pages\":[{\"fields\":[{\"name\":\"n\",\"type\":\"long\"}],\"rows\":[[1],[2]]},";
    String rest =
        "{\"fields\":[{\"name\":\"n\",\"type\":\"long\"}],\"rows\":[[3]]}],\"messages\":[]}";
    try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread.ofVirtual()
          .start(
              () ->
                  answerAfter(
                      listener,
                      closed,
                      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                          + "Transfer-Encoding: chunked\r\n\r\n",
                      first,
                      rest));
      QuarryClient client =
          QuarryClient.builder(URI.create("http://127.0.0.1:" + listener.getLocalPort()))
              .adminPassword("pw")
              .retries(1)
              .build();
      try (ResultStream stream = client.stream("x", null, null)) {
        assertThat(stream.next().rows()).hasSize(2);
        client.close();
        closed.countDown();
        assertThat(stream.hasNext()).as("the rest of a stream opened before close").isTrue();
        assertThat(stream.next().rows()).hasSize(1);
        assertThat(stream.hasNext()).isFalse();
      }
    }
  }

  @Test
  void aFileRegionUnderWayWhenTheClientClosesEndsAndItsConnectionIsNotKept(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path directory) throws Exception {
    java.nio.file.Path file = directory.resolve("one.log");
    java.nio.file.Files.writeString(file, "one line\n");
    CountDownLatch closed = new CountDownLatch(1);
    CompletableFuture<String> afterAnswer = new CompletableFuture<>();
    try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file)) {
      Thread.ofVirtual()
          .start(
              () -> {
                try (Socket socket = listener.accept()) {
                  InputStream in = new BufferedInputStream(socket.getInputStream());
                  in.readNBytes(contentLength(in));
                  closed.await();
                  socket
                      .getOutputStream()
                      .write(
                          "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
                              .getBytes(StandardCharsets.ISO_8859_1));
                  int next = in.read();
                  afterAnswer.complete(next < 0 ? "the end" : "a byte: " + next);
                } catch (IOException | InterruptedException e) {
                  afterAnswer.complete("failed: " + e);
                }
              });
      QuarryClient client =
          QuarryClient.builder(URI.create("http://127.0.0.1:" + listener.getLocalPort()))
              .hecToken("tok")
              .build();
      CompletableFuture<Object> sent = new CompletableFuture<>();
      Thread.ofVirtual()
          .start(
              () -> {
                try {
                  client.sendRaw(
                      channel, 0, java.nio.file.Files.size(file), "st", "main", null, "s");
                  sent.complete("sent");
                } catch (Throwable e) {
                  sent.complete(e);
                }
              });
      Thread.sleep(500);
      assertThat(sent).isNotDone();
      client.close();
      closed.countDown();
      assertThat(sent.get(10, TimeUnit.SECONDS)).isEqualTo("sent");
      assertThat(afterAnswer.get(10, TimeUnit.SECONDS))
          .as("the connection of a region sent across close() is not kept")
          .isEqualTo("the end");
    }
  }

  /**
   * Reads one request; writes {@code head} (its {@code %d} the body's length) and {@code first}
   * (chunked, when given), waits for {@code closed}, then writes {@code rest}.
   */
  private static void answerAfter(
      ServerSocket listener, CountDownLatch closed, String head, String first, String rest) {
    try (Socket socket = listener.accept()) {
      InputStream in = new BufferedInputStream(socket.getInputStream());
      in.readNBytes(contentLength(in));
      OutputStream out = socket.getOutputStream();
      if (first == null) {
        closed.await();
        byte[] body = rest.getBytes(StandardCharsets.UTF_8);
        out.write(head.formatted(body.length).getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
      } else {
        out.write(head.getBytes(StandardCharsets.ISO_8859_1));
        chunk(out, first);
        out.flush();
        closed.await();
        chunk(out, rest);
        out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
      }
      socket.getInputStream().read(); // until the client goes
    } catch (IOException | InterruptedException e) {
      // the test's assertions tell
    }
  }

  private static void chunk(OutputStream out, String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
    out.write(bytes);
    out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
  }

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
