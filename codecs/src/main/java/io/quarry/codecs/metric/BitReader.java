package io.quarry.codecs.metric;

import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.util.ArrayUtil;

/**
 * Reads a bit stream written by {@link BitWriter}: the payload's bytes are loaded once into
 * big-endian {@code long} words (the array is kept and reused for the next chunk), and reading
 * {@code n} bits is a shift of at most two words. Reading past the payload's end throws {@link
 * CorruptIndexException}: a chunk whose header promises more points than its payload holds.
 */
final class BitReader {
  private long[] words = new long[0];
  private long position;
  private long limit;
  private String resource = "metric chunk";

  /** Starts reading {@code length} bytes of {@code bytes} from {@code offset}. */
  void reset(byte[] bytes, int offset, int length, String resource) {
    int wordCount = (length + 7) >>> 3;
    if (words.length < wordCount + 1) {
      words = new long[ArrayUtil.oversize(wordCount + 1, Long.BYTES)];
    }
    int full = length >>> 3;
    for (int w = 0; w < full; w++) {
      int at = offset + (w << 3);
      words[w] =
          (bytes[at] & 0xFFL) << 56
              | (bytes[at + 1] & 0xFFL) << 48
              | (bytes[at + 2] & 0xFFL) << 40
              | (bytes[at + 3] & 0xFFL) << 32
              | (bytes[at + 4] & 0xFFL) << 24
              | (bytes[at + 5] & 0xFFL) << 16
              | (bytes[at + 6] & 0xFFL) << 8
              | (bytes[at + 7] & 0xFFL);
    }
    long tail = 0;
    for (int i = full << 3; i < length; i++) {
      tail |= (bytes[offset + i] & 0xFFL) << (56 - ((i & 7) << 3));
    }
    words[full] = tail;
    words[wordCount] = 0; // the second word a read at the very end may touch
    position = 0;
    limit = (long) length << 3;
    this.resource = resource;
  }

  long position() {
    return position;
  }

  long limit() {
    return limit;
  }

  boolean readBit() throws CorruptIndexException {
    if (position >= limit) {
      throw pastEnd(1);
    }
    long word = words[(int) (position >>> 6)];
    boolean bit = (word << (position & 63)) < 0;
    position++;
    return bit;
  }

  /** The next {@code count} bits (1 to 64) as the low bits of a long, the first read highest. */
  long readBits(int count) throws CorruptIndexException {
    assert count >= 1 && count <= 64 : count;
    if (position + count > limit) {
      throw pastEnd(count);
    }
    int word = (int) (position >>> 6);
    int offset = (int) (position & 63);
    long bits = words[word] << offset;
    if (offset + count > 64) {
      bits |= words[word + 1] >>> (64 - offset);
    }
    position += count;
    return bits >>> (64 - count);
  }

  private CorruptIndexException pastEnd(int count) {
    return new CorruptIndexException(
        "payload ends at bit "
            + limit
            + " but a point needs "
            + count
            + " more from bit "
            + position,
        resource);
  }
}
