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
 * response read by hand (status line, headers, a {@code Content-Length} or chunked body), so the
 * load generator costs the shared two-core machine little (the JDK's client cost as much CPU as the
 * server spent ingesting). Anything but 200 is an {@link IllegalStateException} with the body.
 */
final class HttpSocket implements Closeable {
  private final Socket socket;
  private final OutputStream out;
  private final InputStream in;
  private final byte[] head;

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

  /** Posts a body and returns the answer's body. */
  byte[] post(byte[] body) throws IOException {
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
    byte[] answer;
    if (chunked) {
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      int size;
      while ((size = Integer.parseInt(line().split(";")[0].trim(), 16)) > 0) {
        all.write(exactly(size));
        line(); // the chunk's CRLF
      }
      while (!line().isEmpty()) {
        // trailers
      }
      answer = all.toByteArray();
    } else if (length >= 0) {
      answer = exactly(length);
    } else {
      throw new IOException("an answer neither chunked nor with a Content-Length: " + status);
    }
    if (!status.startsWith("HTTP/1.1 200")) {
      throw new IllegalStateException(
          "answered " + status + ": " + new String(answer, StandardCharsets.UTF_8));
    }
    return answer;
  }

  private byte[] exactly(int length) throws IOException {
    byte[] bytes = in.readNBytes(length);
    if (bytes.length < length) {
      throw new EOFException("the answer was cut short");
    }
    return bytes;
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
