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
 * A lean HEC sender for the benchmark: one keep-alive socket, {@code POST
 * /services/collector/event} written and its response read by hand (status line, headers, a {@code
 * Content-Length} body). Anything but 200 is an {@link IllegalStateException} with the body.
 */
final class HecSocket implements Closeable {
  private final Socket socket;
  private final OutputStream out;
  private final InputStream in;
  private final byte[] head;

  HecSocket(String host, int port, String token) throws IOException {
    this.socket = new Socket(host, port);
    socket.setTcpNoDelay(true);
    this.out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
    this.in = new BufferedInputStream(socket.getInputStream(), 1 << 14);
    this.head =
        ("POST /services/collector/event HTTP/1.1\r\nHost: "
                + host
                + "\r\nAuthorization: Splunk "
                + token
                + "\r\nContent-Type: application/json\r\nContent-Length: ")
            .getBytes(StandardCharsets.US_ASCII);
  }

  /** Posts a body and waits for its answer. */
  void post(byte[] body) throws IOException {
    out.write(head);
    out.write((body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(body);
    out.flush();
    String status = line();
    int length = -1;
    String header;
    while (!(header = line()).isEmpty()) {
      int colon = header.indexOf(':');
      if (colon > 0
          && header.substring(0, colon).trim().toLowerCase(Locale.ROOT).equals("content-length")) {
        length = Integer.parseInt(header.substring(colon + 1).trim());
      }
    }
    if (length < 0) {
      throw new IOException("a HEC answer without Content-Length: " + status);
    }
    byte[] answer = in.readNBytes(length);
    if (answer.length < length) {
      throw new EOFException("the HEC answer was cut short");
    }
    if (!status.startsWith("HTTP/1.1 200")) {
      throw new IllegalStateException(
          "HEC answered " + status + ": " + new String(answer, StandardCharsets.UTF_8));
    }
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
