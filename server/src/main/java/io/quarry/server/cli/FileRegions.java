package io.quarry.server.cli;

import io.quarry.client.FileReads;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Cuts an uncompressed file into chunks of whole lines exactly where {@link FileChunks} would, but
 * without reading them: only the last {@link #WINDOW_BYTES} of each chunk are read, to find the
 * cut, and the chunk is sent from the file itself ({@code QuarryClient.sendRaw(FileChannel, …)}:
 * {@code sendfile} over plain HTTP). A chunk whose window holds no place to cut (a line or a
 * multi-line event longer than the window) is read whole, once. One instance per reading thread.
 */
final class FileRegions {
  static final int WINDOW_BYTES = 64 * 1024;

  private final int chunkBytes;
  private final byte[] window;
  private byte[] whole; // made the first time a window is not enough

  FileRegions() {
    this(FileChunks.CHUNK_BYTES, WINDOW_BYTES);
  }

  FileRegions(int chunkBytes, int windowBytes) {
    this.chunkBytes = chunkBytes;
    this.window = new byte[Math.min(windowBytes, chunkBytes)];
  }

  /** Receives one chunk: bytes {@code [start, end)} of the file, whole lines. */
  @FunctionalInterface
  interface RegionConsumer {
    void region(long start, long end) throws Exception;
  }

  /**
   * Cuts the file, from {@code from} to its size now, into chunks of at most the chunk size, as
   * {@link FileChunks#forEach} does: each ends at a line end, where possible before a line that
   * starts with a non-blank character; with {@code wholeLinesOnly} an unterminated last line is
   * left for later, otherwise it is sent. A file that shrinks meanwhile ends the cutting where it
   * now ends.
   *
   * @return the offset after the last byte handed over
   */
  long forEach(FileChannel file, long from, boolean wholeLinesOnly, RegionConsumer consumer)
      throws Exception {
    long size = file.size();
    long at = from;
    while (at < size) {
      long remaining = size - at;
      int cut;
      if (remaining >= chunkBytes) {
        cut = cut(file, at, chunkBytes, true);
      } else if (wholeLinesOnly) {
        cut = cut(file, at, (int) remaining, false);
      } else {
        cut = (int) remaining;
      }
      if (cut <= 0) {
        return at; // no line end yet, or the file shrank
      }
      consumer.region(at, at + cut);
      at += cut;
    }
    return at;
  }

  /**
   * Where to cut the {@code length} bytes at {@code at}: {@link FileChunks#eventBoundary} ({@code
   * events}) or {@link FileChunks#lastLineEnd}, from the window at their end when it holds the
   * place, else from all of them; -1 when the file no longer holds them.
   */
  private int cut(FileChannel file, long at, int length, boolean events) throws IOException {
    int size = Math.min(window.length, length);
    if (!read(file, at + length - size, window, size)) {
      return -1;
    }
    int found =
        events ? FileChunks.lastEventStart(window, size) : FileChunks.lastLineEnd(window, size);
    if (found > 0) {
      return length - size + found;
    }
    if (size < length) {
      if (whole == null) {
        whole = new byte[chunkBytes];
      }
      if (!read(file, at, whole, length)) {
        return -1;
      }
      return events
          ? FileChunks.eventBoundary(whole, length)
          : FileChunks.lastLineEnd(whole, length);
    }
    return events ? FileChunks.eventBoundary(window, size) : 0;
  }

  /** Reads {@code length} bytes at {@code position} into the array; false at the file's end. */
  private static boolean read(FileChannel file, long position, byte[] into, int length)
      throws IOException {
    return FileReads.readFully(file, position, ByteBuffer.wrap(into, 0, length));
  }
}
