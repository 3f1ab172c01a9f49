package io.quarry.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Reads a region of a file whole ({@link FileChannel#read(ByteBuffer, long)} may read less than
 * asked). Public for the CLI, which cuts the regions it sends with {@link
 * QuarryClient#sendRaw(FileChannel, long, long, String, String, String, String)}: the one read loop
 * of both, in the module both have (the server depends on the client, never the other way). Not
 * API: it may change without notice.
 */
public final class FileReads {
  private FileReads() {}

  /**
   * Fills {@code into} (from its position to its limit) with the file's bytes from {@code
   * position}, without moving the file's own position.
   *
   * @return false when the file ends first ({@code into} then holds what was there)
   */
  public static boolean readFully(FileChannel file, long position, ByteBuffer into)
      throws IOException {
    long at = position;
    while (into.hasRemaining()) {
      int read = file.read(into, at);
      if (read < 0) {
        return false;
      }
      at += read;
    }
    return true;
  }
}
