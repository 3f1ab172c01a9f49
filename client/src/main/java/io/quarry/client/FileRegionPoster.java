package io.quarry.client;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * POSTs whose body is a region of a file, over plain-TCP HTTP/1.1 connections it keeps open: the
 * headers are written from a small buffer and the body with {@link FileChannel#transferTo}, which
 * on Linux is {@code sendfile}: the bytes go from the page cache to the socket without entering the
 * JVM (no read into the heap, no copy into a direct buffer, no HTTP client machinery per slice).
 * {@code quarry ingest}'s own CPU per byte sent is what this saves: every core-second it does not
 * use is the server's, on the same machine.
 *
 * <p>Only for {@code http://} (TLS has to encrypt in the JVM, so {@link HecRequests} reads the
 * region and sends it through the JDK client there). Thread-safe: each request takes an idle
 * connection or opens one, and gives it back when the answer leaves it reusable. A request that
 * fails on a connection it reused, other than by a read timeout (the server closed it while idle),
 * is sent once more on a new connection.
 */
final class FileRegionPoster {
  private final InetSocketAddress address;
  private final String hostHeader;
  private final int connectTimeoutMillis;
  private final int readTimeoutMillis;
  private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();

  FileRegionPoster(URI baseUri, Duration connectTimeout, Duration readTimeout) {
    if (!"http".equalsIgnoreCase(baseUri.getScheme())) {
      throw new IllegalArgumentException("plain http only, not " + baseUri);
    }
    int port = baseUri.getPort() < 0 ? 80 : baseUri.getPort();
    String host = baseUri.getHost();
    this.address =
        new InetSocketAddress(
            host.startsWith("[") ? host.substring(1, host.length() - 1) : host, port);
    this.hostHeader = baseUri.getPort() < 0 ? host : host + ":" + port;
    this.connectTimeoutMillis = millis(connectTimeout);
    this.readTimeoutMillis = millis(readTimeout);
  }

  /**
   * Sends {@code POST pathAndQuery} with {@code length} bytes of {@code file} from {@code position}
   * as the body, and reads the answer.
   */
  PlainHttpAnswer post(
      String pathAndQuery, String authorization, FileChannel file, long position, long length)
      throws IOException {
    byte[] head =
        ("POST "
                + pathAndQuery
                + " HTTP/1.1\r\nHost: "
                + hostHeader
                + "\r\nAuthorization: "
                + authorization
                + "\r\nUser-Agent: quarry-client\r\nContent-Type: text/plain\r\nContent-Length: "
                + length
                + "\r\n\r\n")
            .getBytes(StandardCharsets.ISO_8859_1);
    Connection reused = idle.pollFirst();
    if (reused != null) {
      try {
        return exchange(reused, head, file, position, length);
      } catch (SocketTimeoutException slow) {
        throw slow; // the server has the request and may still store it: never sent twice
      } catch (IOException stale) {
        // closed by the server while idle (it does so after server.idleTimeoutSeconds), so it
        // never took the request: sent once more, on a new connection
      }
    }
    return exchange(open(), head, file, position, length);
  }

  private PlainHttpAnswer exchange(
      Connection connection, byte[] head, FileChannel file, long position, long length)
      throws IOException {
    boolean keep = false;
    try {
      IOException writeFailure = null;
      try {
        writeFully(connection.channel, ByteBuffer.wrap(head));
        long at = position;
        long end = position + length;
        while (at < end) {
          long sent = file.transferTo(at, end - at, connection.channel);
          if (sent <= 0) { // a blocking socket takes something: the file ends before the region
            throw new IOException(
                "the file ends at " + file.size() + ", inside the region sent (to " + end + ")");
          }
          at += sent;
        }
      } catch (IOException e) {
        writeFailure = e; // a server that answers early (and closes) may have said why
      }
      PlainHttpAnswer answer;
      try {
        answer = PlainHttpAnswer.read(connection.in);
      } catch (IOException e) {
        if (writeFailure != null) {
          writeFailure.addSuppressed(e);
          throw writeFailure;
        }
        throw e;
      }
      keep = writeFailure == null && answer.reusable();
      return answer;
    } finally {
      if (keep) {
        idle.addFirst(connection);
      } else {
        connection.close();
      }
    }
  }

  private static void writeFully(SocketChannel channel, ByteBuffer bytes) throws IOException {
    while (bytes.hasRemaining()) {
      channel.write(bytes);
    }
  }

  private Connection open() throws IOException {
    SocketChannel channel = SocketChannel.open();
    try {
      channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      Socket socket = channel.socket();
      socket.connect(address, connectTimeoutMillis);
      // reads through the socket's stream honour its timeout; the channel writes and sendfile
      socket.setSoTimeout(readTimeoutMillis);
      return new Connection(channel, new BufferedInputStream(socket.getInputStream(), 8192));
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  private static int millis(Duration duration) {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(1, duration.toMillis()));
  }

  /** One open connection and the buffered stream its answers are read from. */
  private static final class Connection {
    final SocketChannel channel;
    final InputStream in;

    Connection(SocketChannel channel, InputStream in) {
      this.channel = channel;
      this.in = in;
    }

    void close() {
      try {
        channel.close();
      } catch (IOException ignored) {
        // closing: nothing to do about it
      }
    }
  }
}
