package io.quarry.client;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * A bare HTTP/1.1 peer on 127.0.0.1 for the client's tests: a server socket with no HTTP library in
 * between, so a test scripts each answer byte by byte, chooses when it is sent and sees when the
 * client ends its connection.
 */
final class BarePeer implements AutoCloseable {
  /** A 200 answer with an empty JSON object, the connection kept. */
  static final String OK_EMPTY_OBJECT =
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";

  /** What the peer does once it has read a request. */
  interface Answer {
    /**
     * Answers on {@code socket}; {@code in} is its input past the request.
     *
     * @return what the peer saw after its answer, for the test's assertions
     */
    String answer(Socket socket, InputStream in) throws IOException, InterruptedException;
  }

  private final ServerSocket listener;

  BarePeer() throws IOException {
    listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
  }

  /** The peer's address, for a client's builder. */
  URI uri() {
    return URI.create("http://127.0.0.1:" + listener.getLocalPort());
  }

  /**
   * Serves one connection on a virtual thread: reads its first request (head and body), then lets
   * {@code answer} answer it. The future completes with what the answer returned, or {@code
   * "failed: "} and the exception.
   */
  CompletableFuture<String> serveOne(Answer answer) {
    CompletableFuture<String> seen = new CompletableFuture<>();
    Thread.ofVirtual()
        .start(
            () -> {
              try (Socket socket = listener.accept()) {
                InputStream in = new BufferedInputStream(socket.getInputStream());
                in.readNBytes(contentLength(in));
                seen.complete(answer.answer(socket, in));
              } catch (IOException | InterruptedException e) {
                seen.complete("failed: " + e);
              }
            });
    return seen;
  }

  /** Writes {@code text}'s ISO-8859-1 bytes (an answer's head) to {@code socket}. */
  static void write(Socket socket, String text) throws IOException {
    socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
  }

  /**
   * Reads on after an answer until the client sends or ends: {@code "the end"} when it closed the
   * connection, else the byte it sent.
   */
  static String whatFollows(InputStream in) throws IOException {
    int next = in.read();
    return next < 0 ? "the end" : "a byte: " + next;
  }

  /** Reads a request's head; its Content-Length (0 without one). */
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

  @Override
  public void close() throws IOException {
    listener.close();
  }
}
