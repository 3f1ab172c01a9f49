package io.quarry.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Review (session 35, review-b): {@link QuarryClient#close} says a call under way ends (and the
 * README that only idle connections close). A {@link BarePeer} holds its answer until the client
 * has been closed: a search waiting for it and a result stream half read still get the rest, and a
 * file region sent by {@code sendfile} ends and its connection is not kept (the peer sees its end).
 */
class QuarryClientCloseInFlightTest {

  @Test
  void aSearchWaitingForItsAnswerWhenTheClientClosesGetsIt() throws Exception {
    CountDownLatch closed = new CountDownLatch(1);
    try (BarePeer peer = new BarePeer()) {
      answerAfter(
          peer,
          closed,
          "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n",
          null,
          "{\"preview\":false,\"offset\":0,\"lastrow\":true,\"result\":{\"n\":\"1\"}}\n");
      QuarryClient client = QuarryClient.builder(peer.uri()).adminPassword("pw").retries(1).build();
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
    try (BarePeer peer = new BarePeer()) {
      answerAfter(
          peer,
          closed,
          "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
              + "Transfer-Encoding: chunked\r\n\r\n",
          first,
          rest);
      QuarryClient client = QuarryClient.builder(peer.uri()).adminPassword("pw").retries(1).build();
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
    try (BarePeer peer = new BarePeer();
        java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file)) {
      CompletableFuture<String> afterAnswer =
          peer.serveOne(
              (socket, in) -> {
                closed.await();
                BarePeer.write(socket, BarePeer.OK_EMPTY_OBJECT);
                return BarePeer.whatFollows(in);
              });
      QuarryClient client = QuarryClient.builder(peer.uri()).hecToken("tok").build();
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
   * Has {@code peer} read one request, write {@code head} (its {@code %d} the body's length) and
   * {@code first} (chunked, when given), wait for {@code closed}, then write {@code rest}.
   */
  private static void answerAfter(
      BarePeer peer, CountDownLatch closed, String head, String first, String rest) {
    peer.serveOne(
        (socket, in) -> {
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
          return BarePeer.whatFollows(in); // until the client goes; the test's assertions tell
        });
  }

  private static void chunk(OutputStream out, String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
    out.write(bytes);
    out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
  }
}
