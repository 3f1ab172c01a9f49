package io.quarry.server.ingest;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Finds the end of a line in a request body's bytes and whether the line is ASCII, in one pass of
 * eight bytes a step: the line feed by the classic zero-byte test on the word XORed with line feeds
 * (the lowest flagged byte is exact), the high bits ORed together up to it. What the breaker needs
 * to make an ASCII line's text and bytes straight from the body, without decoding it as UTF-8.
 */
final class LineScan {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long LINE_FEEDS = 0x0A0A0A0A0A0A0A0AL;
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGH_BITS = 0x8080808080808080L;

  private LineScan() {}

  /**
   * The line that starts at {@code from}: where it ends (the index of its line feed, or {@code
   * limit} when none comes first) times two, plus one when every byte before that end is ASCII.
   */
  static long next(byte[] bytes, int from, int limit) {
    int i = from;
    long any = 0;
    for (; i + Long.BYTES <= limit; i += Long.BYTES) {
      long word = (long) LONGS.get(bytes, i);
      long x = word ^ LINE_FEEDS;
      long feeds = (x - ONES) & ~x & HIGH_BITS;
      if (feeds != 0) {
        int at = Long.numberOfTrailingZeros(feeds) >>> 3;
        any |= word & ((1L << (at * 8)) - 1); // the bytes before the line feed (none when at is 0)
        return result(i + at, any);
      }
      any |= word;
    }
    for (; i < limit; i++) {
      byte b = bytes[i];
      if (b == '\n') {
        break;
      }
      any |= b;
    }
    return result(i, any);
  }

  private static long result(int end, long any) {
    return ((long) end << 1) | ((any & HIGH_BITS) == 0 ? 1 : 0);
  }

  /** The end of the line {@link #next} found. */
  static int end(long line) {
    return (int) (line >>> 1);
  }

  /** Whether the line {@link #next} found is ASCII. */
  static boolean ascii(long line) {
    return (line & 1) != 0;
  }
}
