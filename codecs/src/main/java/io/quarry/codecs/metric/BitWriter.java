package io.quarry.codecs.metric;

import java.util.Arrays;

/**
 * An append-only bit stream over {@code long} words, most significant bit first: bit {@code i} of
 * the stream is bit {@code 63 - (i & 63)} of word {@code i >>> 6}, so the words written out
 * big-endian are the stream's bytes in order. Writing {@code n} bits touches at most two words and
 * allocates nothing unless the word array grows. {@link #truncate} takes the stream back to an
 * earlier length (the chunk writer's "last value wins" rewrites its last point that way).
 */
final class BitWriter {
  private long[] words;
  private long bitLength;

  BitWriter(int initialWords) {
    words = new long[Math.max(1, initialWords)];
  }

  /** Bits written so far. */
  long bitLength() {
    return bitLength;
  }

  /** Bytes the stream takes once padded with zero bits to a byte boundary. */
  int byteLength() {
    return (int) ((bitLength + 7) >>> 3);
  }

  void writeBit(boolean bit) {
    writeBits(bit ? 1 : 0, 1);
  }

  /** Appends the low {@code count} bits of {@code value} (1 to 64), the highest of them first. */
  void writeBits(long value, int count) {
    assert count >= 1 && count <= 64 : count;
    int word = (int) (bitLength >>> 6);
    int offset = (int) (bitLength & 63);
    if (word + 1 >= words.length) {
      words = Arrays.copyOf(words, Math.max(words.length * 2, word + 2));
    }
    long aligned = value << (64 - count); // the bits to write at the top, the rest zero
    words[word] |= aligned >>> offset;
    if (offset + count > 64) {
      words[word + 1] = aligned << (64 - offset);
    }
    bitLength += count;
  }

  /** Forgets every bit from {@code newBitLength} on. */
  void truncate(long newBitLength) {
    if (newBitLength < 0 || newBitLength > bitLength) {
      throw new IllegalArgumentException(
          "cannot truncate " + bitLength + " bits to " + newBitLength);
    }
    if (newBitLength == bitLength) {
      return;
    }
    int word = (int) (newBitLength >>> 6);
    int offset = (int) (newBitLength & 63);
    int lastWord = (int) ((bitLength - 1) >>> 6);
    if (word < words.length) {
      words[word] = offset == 0 ? 0 : words[word] & (-1L << (64 - offset));
    }
    for (int i = word + 1; i <= lastWord && i < words.length; i++) {
      words[i] = 0;
    }
    bitLength = newBitLength;
  }

  /** Forgets every bit. */
  void clear() {
    truncate(0);
  }

  /** Writes the stream's {@link #byteLength()} bytes at {@code offset}. */
  void copyTo(byte[] destination, int offset) {
    int bytes = byteLength();
    for (int i = 0; i < bytes; i++) {
      destination[offset + i] = (byte) (words[i >>> 3] >>> (56 - ((i & 7) << 3)));
    }
  }
}
