package io.quarry.server.cli;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.zip.GZIPInputStream;

/**
 * Cuts files into chunks of whole lines for {@code quarry ingest}, read into a fixed set of reused
 * buffers: a chunk is handed over in the buffer it was read into (no copy), and whoever sends it
 * gives the buffer back with {@link #release} once the server has answered. With one buffer more
 * than requests in flight the reader never waits for a buffer while a request could be sent.
 */
final class FileChunks {
  static final int CHUNK_BYTES = 4 * 1024 * 1024;
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final int chunkBytes;
  private final int maxBuffers;
  private final BlockingQueue<byte[]> free;
  private int made; // buffers allocated so far, by the reading thread only

  FileChunks(int maxBuffers) {
    this(maxBuffers, CHUNK_BYTES);
  }

  FileChunks(int maxBuffers, int chunkBytes) {
    this.chunkBytes = chunkBytes;
    this.maxBuffers = Math.max(1, maxBuffers);
    this.free = new ArrayBlockingQueue<>(this.maxBuffers);
  }

  /** Gives a buffer handed to a {@link ChunkConsumer} back, once nothing reads it any more. */
  void release(byte[] buffer) {
    free.add(buffer);
  }

  private byte[] take() throws InterruptedException {
    byte[] buffer = free.poll();
    if (buffer != null) {
      return buffer;
    }
    if (made < maxBuffers) {
      made++;
      return new byte[chunkBytes];
    }
    return free.take();
  }

  /** Receives one chunk of whole lines, and with it the buffer that holds it. */
  @FunctionalInterface
  interface ChunkConsumer {
    /**
     * @param buffer holds the chunk in {@code [0, length)}; the consumer owns it now and must
     *     {@link #release} it when done
     * @param start the chunk's first byte in the (decompressed) file
     * @param end the byte after its last
     * @param consumed bytes of the file on disk this chunk accounts for (for progress)
     */
    void chunk(byte[] buffer, int length, long start, long end, long consumed) throws Exception;
  }

  /**
   * Cuts a file, from {@code from}, into chunks of at most the buffer size, each ending at a line
   * end (and, where possible, before a line that starts with a non-blank character, so a multi-line
   * event such as a stack trace is not split). With {@code wholeLinesOnly} an unterminated last
   * line is left for later (a file being written); otherwise it is sent.
   *
   * @return the offset after the last byte sent
   */
  long forEach(Path file, long from, boolean wholeLinesOnly, ChunkConsumer consumer)
      throws Exception {
    boolean gzip = isGzip(file);
    byte[] buffer = take();
    int filled = 0;
    long offset = from;
    try (CountingInputStream disk = new CountingInputStream(Files.newInputStream(file));
        InputStream in = gzip ? new GZIPInputStream(disk, 1 << 16) : disk) {
      in.skipNBytes(from);
      long diskBefore = disk.count();
      while (true) {
        int read = in.read(buffer, filled, buffer.length - filled);
        if (read > 0) {
          filled += read;
        }
        boolean atEnd = read < 0;
        if (filled == buffer.length || (atEnd && filled > 0)) {
          int cut =
              atEnd
                  ? (wholeLinesOnly ? lastLineEnd(buffer, filled) : filled)
                  : eventBoundary(buffer, filled);
          if (cut == 0) {
            return offset;
          }
          long diskNow = disk.count();
          long consumed;
          if (!gzip) {
            consumed = cut;
          } else if (atEnd) {
            consumed = diskNow - diskBefore;
          } else {
            consumed = (diskNow - diskBefore) * cut / filled; // compressed bytes, pro rata
          }
          byte[] sent = buffer;
          buffer = null; // the consumer owns it now
          consumer.chunk(sent, cut, offset, offset + cut, consumed);
          // the consumer's sender only reads [0, cut); the rest moves to the next buffer (which
          // may be the same one, released meanwhile: arraycopy copies overlapping ranges right)
          buffer = take();
          System.arraycopy(sent, cut, buffer, 0, filled - cut);
          diskBefore += consumed;
          offset += cut;
          filled -= cut;
        }
        if (atEnd && (filled == 0 || wholeLinesOnly)) {
          return offset;
        }
      }
    } finally {
      if (buffer != null) {
        release(buffer);
      }
    }
  }

  static boolean isGzip(Path file) {
    return file.getFileName().toString().endsWith(".gz");
  }

  /**
   * The number of line ends in {@code [offset, offset + length)}, eight bytes at a time: XOR with
   * eight {@code '\n'} bytes makes each line end a zero byte, and the usual zero-byte test (exact,
   * with no carries between bytes) sets one bit per zero byte. A byte-by-byte loop was a fifth of
   * the client's CPU under the launcher's C1-only JIT.
   */
  static int lines(byte[] chunk, int offset, int length) {
    final long newlines = 0x0A0A0A0A0A0A0A0AL;
    final long low7 = 0x7F7F7F7F7F7F7F7FL;
    int lines = 0;
    int i = offset;
    int end = offset + length;
    for (; i + Long.BYTES <= end; i += Long.BYTES) {
      long x = (long) LONGS.get(chunk, i) ^ newlines;
      long t = (x & low7) + low7;
      lines += Long.bitCount(~(t | x | low7));
    }
    for (; i < end; i++) {
      if (chunk[i] == '\n') {
        lines++;
      }
    }
    return lines;
  }

  /**
   * Where to cut a full buffer: before the last line that starts with a non-blank character (a new
   * event in single- and multi-line logs alike), else at the last line end, else everywhere.
   */
  static int eventBoundary(byte[] buffer, int length) {
    int start = lastEventStart(buffer, length);
    if (start > 0) {
      return start;
    }
    int end = lastLineEnd(buffer, length);
    return end == 0 ? length : end;
  }

  /**
   * Where the last line in the buffer that starts with a non-blank character begins, or 0 for none
   * (a line whose line end is the buffer's first byte counts: the bytes before it are not needed).
   */
  static int lastEventStart(byte[] buffer, int length) {
    for (int i = length - 2; i >= 0; i--) {
      if (buffer[i] == '\n') {
        byte next = buffer[i + 1];
        if (next != ' ' && next != '\t' && next != '\n' && next != '\r') {
          return i + 1;
        }
      }
    }
    return 0;
  }

  /** The end of the last complete line in the buffer, or 0 for none. */
  static int lastLineEnd(byte[] buffer, int length) {
    for (int i = length - 1; i >= 0; i--) {
      if (buffer[i] == '\n') {
        return i + 1;
      }
    }
    return 0;
  }

  /** Counts the bytes read through it (the compressed bytes of a .gz file). */
  private static final class CountingInputStream extends FilterInputStream {
    private long count;

    CountingInputStream(InputStream in) {
      super(in);
    }

    long count() {
      return count;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        count += n;
      }
      return n;
    }
  }
}
