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
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bare HTTP/1.1 peer on 127.0.0.1 for the client's tests: a server socket with no HTTP library in
 * between, so a test scripts each answer byte by byte, chooses when it is sent and sees when the
 * client ends its connection. It serves one connection's first request ({@link #serveOne}), or
 * every request on every connection kept alive ({@link #keepAlive}), counting the connections and
 * keeping each request's body.
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

  /** What a peer kept alive writes for a request, and whether the connection ends after it. */
  record Reply(String bytes, boolean thenClose) {
    /** A 200 answer with {@code json} as its body, the connection kept. */
    static Reply ok(String json) {
      return new Reply(
          "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
              + json.getBytes(StandardCharsets.ISO_8859_1).length
              + "\r\n\r\n"
              + json,
          false);
    }

    /** No answer at all: the connection closes once the request is read. */
    static Reply closeUnanswered() {
      return new Reply("", true);
    }
  }

  /** How a peer kept alive answers each request. */
  interface KeptAnswer {
    /**
     * The reply to the {@code request}th request over every connection (from 1), whose body, read
     * whole, is {@code body}.
     */
    Reply reply(int request, String body);
  }

  private final ServerSocket listener;
  private final List<String> bodies = new CopyOnWriteArrayList<>();
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger requests = new AtomicInteger();
  private volatile Thread acceptor;

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
                int length = contentLength(in);
                if (length < 0) {
                  throw new IOException("the connection ended before a request");
                }
                in.readNBytes(length);
                seen.complete(answer.answer(socket, in));
              } catch (IOException | InterruptedException e) {
                seen.complete("failed: " + e);
              }
            });
    return seen;
  }

  /**
   * Serves every connection on virtual threads until closed, every request on a connection in turn
   * until the client ends it (HTTP/1.1 keep-alive): each body kept ({@link #bodies}), each reply
   * {@code answers}'.
   */
  void keepAlive(KeptAnswer answers) {
    acceptor =
        Thread.ofVirtual()
            .start(
                () -> {
                  while (!listener.isClosed()) {
                    try {
                      Socket socket = listener.accept();
                      connections.incrementAndGet();
                      Thread.ofVirtual().start(() -> serveKept(socket, answers));
                    } catch (IOException closed) {
                      return;
                    }
                  }
                });
  }

  private void serveKept(Socket socket, KeptAnswer answers) {
    try (socket) {
      InputStream in = new BufferedInputStream(socket.getInputStream());
      while (true) {
        int length = contentLength(in);
        if (length < 0) {
          return; // the client ended the connection between requests
        }
        String body = new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
        bodies.add(body);
        Reply reply = answers.reply(requests.incrementAndGet(), body);
        write(socket, reply.bytes());
        socket.getOutputStream().flush();
        if (reply.thenClose()) {
          return;
        }
      }
    } catch (IOException e) {
      // the client went away
    }
  }

  /** The bodies of the requests a peer kept alive read, in the order it read them. */
  List<String> bodies() {
    return bodies;
  }

  /** The connections a peer kept alive accepted. */
  int connections() {
    return connections.get();
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

  /**
   * Reads a request's head; its Content-Length (0 without one), or -1 when the connection ended
   * before the request's first byte.
   */
  private static int contentLength(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0 && head.size() == 0) {
        return -1;
      }
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
    Thread accepting = acceptor;
    if (accepting != null) {
      try {
        accepting.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
