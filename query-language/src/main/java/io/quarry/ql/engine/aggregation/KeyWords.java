package io.quarry.ql.engine.aggregation;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A key's bytes read eight at a time, for {@link BytesKeyHash}: its words as a slot holds them, a
 * comparison of two ranges, and the hash.
 */
final class KeyWords {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private KeyWords() {}

  /** The key's bytes {@code [at, at + 8)} as a little-endian word, zero past its end. */
  static long word(byte[] bytes, int offset, int length, int at) {
    if (at + Long.BYTES <= length) {
      return (long) LONGS.get(bytes, offset + at);
    }
    return at < length ? tail(bytes, offset + at, length - at) : 0;
  }

  /**
   * The {@code n < 8} bytes at {@code bytes[from]} as a little-endian word, zero above them: one
   * load and a mask where the array holds eight bytes from there (a key inside a block's bytes, or
   * the pool, nearly always does), else byte by byte — a 14-byte session id's last six bytes were
   * six loads and shifts per lookup, twice (the hash, then the slot's second word).
   */
  static long tail(byte[] bytes, int from, int n) {
    if (n == 0) {
      return 0;
    }
    if (from + Long.BYTES <= bytes.length) {
      return (long) LONGS.get(bytes, from) & (-1L >>> (Long.SIZE - Byte.SIZE * n));
    }
    long word = 0;
    for (int i = 0; i < n; i++) {
      word |= (bytes[from + i] & 0xFFL) << (Byte.SIZE * i);
    }
    return word;
  }

  /**
   * Whether {@code a[aFrom, +length)} and {@code b[bFrom, +length)} hold the same bytes: eight at a
   * time, for the short keys groups have ({@code Arrays.equals} over ranges costs a call and its
   * checks per key, a tenth of a 200,000-group aggregation).
   */
  static boolean same(byte[] a, int aFrom, byte[] b, int bFrom, int length) {
    int i = 0;
    for (; i + Long.BYTES <= length; i += Long.BYTES) {
      if ((long) LONGS.get(a, aFrom + i) != (long) LONGS.get(b, bFrom + i)) {
        return false;
      }
    }
    for (; i < length; i++) {
      if (a[aFrom + i] != b[bFrom + i]) {
        return false;
      }
    }
    return true;
  }

  /** A hash of the bytes, eight at a time, finished with a 64-bit mix. */
  static int hash(byte[] bytes, int offset, int length) {
    long h = length * 0x9E3779B97F4A7C15L;
    int i = offset;
    int end = offset + length;
    for (; i + Long.BYTES <= end; i += Long.BYTES) {
      h = (h ^ (long) LONGS.get(bytes, i)) * 0xC2B2AE3D27D4EB4FL;
      h = Long.rotateLeft(h, 31);
    }
    h = (h ^ tail(bytes, i, end - i)) * 0xBF58476D1CE4E5B9L;
    h ^= h >>> 31;
    h *= 0x94D049BB133111EBL;
    return (int) (h ^ (h >>> 32));
  }
}
