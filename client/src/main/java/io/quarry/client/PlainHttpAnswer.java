package io.quarry.client;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * An HTTP/1.1 answer read off a connection {@link FileRegionPoster} wrote a request to: the status,
 * the headers (names in lower case, the first value of each), the body as text (by {@code
 * Content-Length}, chunked, or up to the end of the stream), and whether the connection can carry
 * another request.
 */
record PlainHttpAnswer(int status, Map<String, String> headers, String body, boolean reusable) {
  /** The longest status or header line read (the server's answers to HEC are short). */
  static final int MAX_LINE = 16 * 1024;

  /** The answer's {@code name} header (lower case), or null. */
  String header(String name) {
    return headers.get(name);
  }

  /**
   * Reads one answer.
   *
   * @throws EOFException when the stream ends before a status line (nothing was answered)
   */
  static PlainHttpAnswer read(InputStream in) throws IOException {
    while (true) {
      PlainHttpAnswer answer = readOne(in);
      if (answer.status() / 100 != 1) {
        return answer; // an interim answer (100 Continue, 103) is followed by the final one
      }
    }
  }

  private static PlainHttpAnswer readOne(InputStream in) throws IOException {
    String statusLine = line(in);
    if (statusLine == null) {
      throw new EOFException("the server closed the connection without answering");
    }
    // HTTP/1.1 200 OK
    String[] parts = statusLine.split(" ", 3);
    if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
      throw new IOException("not an HTTP/1.x status line: " + statusLine);
    }
    int status;
    try {
      status = Integer.parseInt(parts[1]);
    } catch (NumberFormatException e) {
      throw new IOException("not an HTTP/1.x status line: " + statusLine, e);
    }
    Map<String, String> headers = new LinkedHashMap<>();
    for (String line = line(in); ; line = line(in)) {
      if (line == null) {
        throw new EOFException("the answer ended inside its headers");
      }
      if (line.isEmpty()) {
        break;
      }
      int colon = line.indexOf(':');
      if (colon > 0) {
        headers.putIfAbsent(
            line.substring(0, colon).strip().toLowerCase(Locale.ROOT),
            line.substring(colon + 1).strip());
      }
    }
    boolean close =
        "close".equalsIgnoreCase(headers.get("connection")) || parts[0].equals("HTTP/1.0");
    byte[] body;
    String length = headers.get("content-length");
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      body = chunked(in);
    } else if (length != null) {
      body = in.readNBytes(parseLength(length));
      if (body.length < parseLength(length)) {
        throw new EOFException("the answer ended inside its body");
      }
    } else if (status == 204 || status == 304 || status / 100 == 1) {
      body = new byte[0];
    } else {
      body = in.readAllBytes(); // delimited by the end of the connection
      close = true;
    }
    return new PlainHttpAnswer(status, headers, new String(body, StandardCharsets.UTF_8), !close);
  }

  private static byte[] chunked(InputStream in) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      String sizeLine = line(in);
      if (sizeLine == null) {
        throw new EOFException("the answer ended inside its chunks");
      }
      int semicolon = sizeLine.indexOf(';');
      String hex = (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).strip();
      int size;
      try {
        size = Integer.parseInt(hex, 16);
      } catch (NumberFormatException e) {
        throw new IOException("a bad chunk size: " + sizeLine, e);
      }
      if (size == 0) {
        for (String trailer = line(in); trailer != null && !trailer.isEmpty(); ) {
          trailer = line(in);
        }
        return body.toByteArray();
      }
      byte[] chunk = in.readNBytes(size);
      if (chunk.length < size) {
        throw new EOFException("the answer ended inside a chunk");
      }
      body.write(chunk);
      line(in); // the chunk's CRLF
    }
  }

  private static int parseLength(String value) throws IOException {
    try {
      int length = Integer.parseInt(value.strip());
      if (length >= 0) {
        return length;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IOException("a bad Content-Length: " + value);
  }

  /** One line without its CRLF (or bare LF), or null at the end of the stream before any byte. */
  private static String line(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    while (true) {
      int b = in.read();
      if (b < 0) {
        if (line.isEmpty()) {
          return null;
        }
        throw new EOFException("the answer ended inside a line");
      }
      if (b == '\n') {
        int end = line.length();
        if (end > 0 && line.charAt(end - 1) == '\r') {
          line.setLength(end - 1);
        }
        return line.toString();
      }
      if (line.length() >= MAX_LINE) {
        throw new IOException("an answer line longer than " + MAX_LINE + " bytes");
      }
      line.append((char) b);
    }
  }
}
