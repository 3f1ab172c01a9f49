package io.quarry.server.search;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * How {@link BytesCounts} holds a key of bytes — a range of some byte array — as two {@code long}
 * words and hashes it: a key of at most {@value #SHORT} bytes is its own two words (little-endian,
 * zero-padded: with its length, the key itself), a longer one its 64-bit hash and first eight bytes
 * (its bytes compared elsewhere); the table's hash mixes the two words and the length.
 */
final class KeyWords {
  /** The longest key held as its own two words. */
  static final int SHORT = 16;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private KeyWords() {}

  /**
   * The hash {@link BytesCounts} probes with for the key {@code bytes[offset, offset + length)}.
   */
  static long hash(byte[] bytes, int offset, int length) {
    return hash(firstWord(bytes, offset, length), secondWord(bytes, offset, length), length);
  }

  /**
   * A key's first record word: its first eight bytes (zero-padded) when at most {@value #SHORT}
   * long, else its 64-bit hash ({@link #longHash}).
   */
  static long firstWord(byte[] bytes, int offset, int length) {
    if (length > SHORT) {
      return longHash(bytes, offset, length);
    }
    if (length >= 8) {
      return (long) LONGS.get(bytes, offset);
    }
    if (offset + 8 <= bytes.length) {
      return (long) LONGS.get(bytes, offset) & ((1L << (8 * length)) - 1); // length 0: none
    }
    long first = 0;
    for (int b = 0; b < length; b++) {
      first |= (bytes[offset + b] & 0xFFL) << (8 * b);
    }
    return first;
  }

  /**
   * A key's second record word: its bytes after the first eight (zero-padded) when at most {@value
   * #SHORT} long, else its first eight bytes.
   */
  static long secondWord(byte[] bytes, int offset, int length) {
    if (length > SHORT) {
      return (long) LONGS.get(bytes, offset);
    }
    // the last eight bytes, less those the first word holds
    return length <= 8
        ? 0
        : (long) LONGS.get(bytes, offset + length - 8) >>> (8 * (SHORT - length));
  }

  /** A key's hash from its two words and length. */
  static long hash(long first, long second, int length) {
    long h = (first * 0x9E3779B97F4A7C15L) ^ (second * 0xC2B2AE3D27D4EB4FL) ^ length;
    h ^= h >>> 29;
    return h * 0xBF58476D1CE4E5B9L;
  }

  /**
   * A 64-bit hash of a key longer than 16 bytes, eight bytes a step (the last eight overlapping).
   */
  static long longHash(byte[] bytes, int offset, int length) {
    long h = length * 0x9E3779B97F4A7C15L;
    int end = offset + length;
    int at = offset;
    for (; at + 8 <= end; at += 8) {
      h = mix(h ^ (long) LONGS.get(bytes, at));
    }
    if (at < end) {
      h = mix(h ^ (long) LONGS.get(bytes, end - 8));
    }
    return h;
  }

  static long mix(long h) {
    h *= 0xC2B2AE3D27D4EB4FL;
    return h ^ (h >>> 29);
  }
}
