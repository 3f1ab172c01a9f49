package io.quarry.plugin.api.data;

import java.util.Arrays;

/** A growable bit set of null positions shared by the block builders. Absent means no nulls. */
final class NullMask {
  private long[] words = new long[0];
  private boolean any;

  void set(int position) {
    int word = position >>> 6;
    if (word >= words.length) {
      words = Arrays.copyOf(words, Math.max(word + 1, words.length * 2));
    }
    words[word] |= 1L << position;
    any = true;
  }

  /** Returns the mask words, or null when no position is null. */
  long[] build() {
    return any ? words.clone() : null;
  }

  static boolean isNull(long[] words, int position) {
    if (words == null) {
      return false;
    }
    int word = position >>> 6;
    return word < words.length && (words[word] & (1L << position)) != 0;
  }

  static void checkIndex(int position, int count) {
    if (position < 0 || position >= count) {
      throw new IndexOutOfBoundsException("position " + position + " of " + count);
    }
  }
}
