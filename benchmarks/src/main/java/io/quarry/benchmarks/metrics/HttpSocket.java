package io.quarry.benchmarks.metrics;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A lean HTTP/1.1 client for the benchmark: one keep-alive socket, a {@code POST} written and its
 * response read by hand into a buffer reused from request to request (status line, headers, a
 * {@code Content-Length} or chunked body), so the load generator costs the shared two-core machine
 * little (the JDK's client cost as much CPU as the server spent ingesting). Anything but 200 is an
 * {@link IllegalStateException} with the body.
 */
final class HttpSocket implements Closeable {
  private final Socket socket;
  private final OutputStream out;
  private final InputStream in;
  private final byte[] head;
  private byte[] answer = new byte[1 << 16];

  /**
   * @param path the path every request posts to
   * @param authorization the {@code Authorization} header's value
   * @param contentType the body's type
   */
  HttpSocket(String host, int port, String path, String authorization, String contentType)
      throws IOException {
    this.socket = new Socket(host, port);
    socket.setTcpNoDelay(true);
    this.out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
    this.in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
    this.head =
        ("POST "
                + path
                + " HTTP/1.1\r\nHost: "
                + host
                + "\r\nAuthorization: "
                + authorization
                + "\r\nContent-Type: "
                + contentType
                + "\r\nContent-Length: ")
            .getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Posts a body and reads the answer's body into this socket's own buffer, {@link #answer()},
   * reused from request to request: the client copies each byte once, so it takes little of the CPU
   * the server it measures needs.
   *
   * @return the body's length
   */
  int exchange(byte[] body) throws IOException {
    out.write(head);
    out.write((body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(body);
    out.flush();
    String status = line();
    int length = -1;
    boolean chunked = false;
    String header;
    while (!(header = line()).isEmpty()) {
      int colon = header.indexOf(':');
      if (colon > 0) {
        String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
        String value = header.substring(colon + 1).trim();
        if (name.equals("content-length")) {
          length = Integer.parseInt(value);
        } else if (name.equals("transfer-encoding") && value.equalsIgnoreCase("chunked")) {
          chunked = true;
        }
      }
    }
    int size = 0;
    if (chunked) {
      int chunk;
      while ((chunk = Integer.parseInt(line().split(";")[0].trim(), 16)) > 0) {
        size = read(size, chunk);
        line(); // the chunk's CRLF
      }
      while (!line().isEmpty()) {
        // trailers
      }
    } else if (length >= 0) {
      size = read(0, length);
    } else {
      throw new IOException("an answer neither chunked nor with a Content-Length: " + status);
    }
    if (!status.startsWith("HTTP/1.1 200")) {
      throw new IllegalStateException(
          "answered " + status + ": " + new String(answer, 0, size, StandardCharsets.UTF_8));
    }
    return size;
  }

  /** The buffer the last {@link #exchange} read its answer into, from index 0. */
  byte[] answer() {
    return answer;
  }

  /** Reads {@code length} bytes into the answer buffer at {@code at}; the new size. */
  private int read(int at, int length) throws IOException {
    if (at + length > answer.length) {
      answer = java.util.Arrays.copyOf(answer, Math.max(at + length, answer.length * 2));
    }
    if (in.readNBytes(answer, at, length) < length) {
      throw new EOFException("the answer was cut short");
    }
    return at + length;
  }

  private String line() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream(64);
    int b;
    while ((b = in.read()) != '\n') {
      if (b < 0) {
        throw new EOFException("the server closed the connection");
      }
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.US_ASCII);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
