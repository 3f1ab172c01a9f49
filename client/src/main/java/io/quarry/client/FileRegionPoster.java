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
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

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
 * connection or opens one, and gives it back when the answer leaves it reusable. An idle connection
 * the server closed, or one idle longer than {@link #MAX_IDLE_NANOS}, is dropped before use; a
 * request whose body's write failed on a reused one is sent once more on a new connection, never
 * one whose body went whole (the server may have stored it). The body's write is bounded by the
 * read timeout too.
 */
final class FileRegionPoster {
  private final InetSocketAddress address;
  private final String hostHeader;
  private final int connectTimeoutMillis;
  private final int readTimeoutMillis;
  private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();
  private volatile boolean closed;

  /** Closes a connection whose body write outlasts the timeout (sendfile has none of its own). */
  private static final ScheduledThreadPoolExecutor WATCHDOG = watchdog();

  private static ScheduledThreadPoolExecutor watchdog() {
    ScheduledThreadPoolExecutor watchdog =
        new ScheduledThreadPoolExecutor(
            1,
            runnable -> {
              Thread thread = new Thread(runnable, "quarry-sendfile-watchdog");
              thread.setDaemon(true);
              return thread;
            });
    watchdog.setRemoveOnCancelPolicy(true);
    return watchdog;
  }

  /** The file ends before the region sent: the client's own failure, never sent again. */
  static final class FileEnded extends IOException {
    FileEnded(long size, long end) {
      super("the file ends at " + size + ", inside the region sent (to " + end + ")");
    }
  }

  /** A request that did not reach the server whole (its body's write failed). */
  private static final class NotSent extends IOException {
    final IOException failure;

    NotSent(IOException failure) {
      super(failure);
      this.failure = failure;
    }
  }

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
    if (closed) {
      throw new IllegalStateException("the client is closed");
    }
    long size = file.size();
    if (size < position + length) {
      throw new FileEnded(size, position + length); // nothing sent: the region is not there
    }
    Connection reused;
    while ((reused = idle.pollFirst()) != null && !reused.reusable()) {
      reused.close(); // idle too long, or closed by the server while idle
    }
    if (reused != null) {
      try {
        return exchange(reused, head, file, position, length);
      } catch (NotSent stale) {
        // the server closed it just as it was taken and never had the whole request: sent once
        // more, on a new connection; never after the body went whole (the server may store it)
      }
    }
    try {
      return exchange(open(), head, file, position, length);
    } catch (NotSent failed) {
      throw failed.failure;
    }
  }

  private PlainHttpAnswer exchange(
      Connection connection, byte[] head, FileChannel file, long position, long length)
      throws IOException {
    boolean keep = false;
    try {
      IOException writeFailure = null;
      // a server that stops reading would hold sendfile for good: the timeout closes the channel
      ScheduledFuture<?> guard =
          WATCHDOG.schedule(connection::close, readTimeoutMillis, TimeUnit.MILLISECONDS);
      try {
        writeFully(connection.channel, ByteBuffer.wrap(head));
        long at = position;
        long end = position + length;
        while (at < end) {
          long sent = file.transferTo(at, end - at, connection.channel);
          if (sent <= 0) { // a blocking socket takes something: the file ends before the region
            throw new FileEnded(file.size(), end); // no answer to wait for: closed below
          }
          at += sent;
        }
      } catch (FileEnded e) {
        throw e;
      } catch (IOException e) {
        writeFailure = e; // a server that answers early (and closes) may have said why
      } finally {
        guard.cancel(false);
      }
      if (guard.isDone() && !guard.isCancelled()) {
        throw new SocketTimeoutException(
            "the server took no more of the body for " + readTimeoutMillis + " ms");
      }
      PlainHttpAnswer answer;
      try {
        answer = PlainHttpAnswer.read(connection.in);
      } catch (IOException e) {
        if (writeFailure != null) {
          writeFailure.addSuppressed(e);
          throw new NotSent(writeFailure); // the body did not go whole: the server stored nothing
        }
        throw e;
      }
      keep = writeFailure == null && answer.reusable();
      return answer;
    } finally {
      if (keep) {
        connection.idleSince = System.nanoTime();
        idle.addFirst(connection);
        if (closed) {
          closeIdle(); // closed meanwhile: no connection kept past it
        }
      } else {
        connection.close();
      }
    }
  }

  /**
   * Closes the idle connections and takes no new request; one under way ends and closes its
   * connection.
   */
  void close() {
    closed = true;
    closeIdle();
  }

  private void closeIdle() {
    Connection connection;
    while ((connection = idle.pollFirst()) != null) {
      connection.close();
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

  /**
   * The longest a connection may sit idle and still be reused: half the shortest idle timeout a
   * Quarry server can have ({@code server.idleTimeoutSeconds} is at least 1). A connection idle
   * about as long as the server's timeout can be closed by the server while a request is on its
   * way: the request then goes whole into a closing socket and no answer comes, which cannot be
   * told from a server that stored it and died, so it is never sent again ({@code quarry ingest
   * --follow}, polling every second against a one-second timeout, failed so). A new connection
   * costs one handshake; a busy sender never waits this long between requests.
   */
  static final long MAX_IDLE_NANOS = 500_000_000L;

  /** One open connection and the buffered stream its answers are read from. */
  private static final class Connection {
    final SocketChannel channel;
    final InputStream in;
    long idleSince; // System.nanoTime() when it was last given back (the idle deque publishes it)

    Connection(SocketChannel channel, InputStream in) {
      this.channel = channel;
      this.in = in;
    }

    /** Whether a request may go on this connection: idle briefly and still open. */
    boolean reusable() {
      return System.nanoTime() - idleSince < MAX_IDLE_NANOS && idleAndOpen();
    }

    /**
     * Whether the connection is still open and has nothing unread: the server's close while it sat
     * idle shows as the end of the stream, read without blocking.
     */
    boolean idleAndOpen() {
      try {
        if (in.available() > 0) {
          return false;
        }
        channel.configureBlocking(false);
        try {
          return channel.read(ByteBuffer.allocate(1)) == 0;
        } finally {
          channel.configureBlocking(true);
        }
      } catch (IOException e) {
        return false;
      }
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
