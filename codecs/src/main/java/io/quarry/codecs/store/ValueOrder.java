package io.quarry.codecs.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.lucene.util.BytesRef;

/**
 * The order of a block's distinct values of one field by their UTF-8 bytes, which is the order the
 * block's sorted-set doc values and codes take ({@link BlockValueTally}). Where no value has a
 * character from U+D800 up, UTF-16 order is that order, so the values are compared as strings; and
 * they are sorted as longs first: each value's first characters (six of 8 bits where every
 * character of every value is below U+0100, else three of 16) above its index, one primitive sort,
 * then each run of equal prefixes sorted by the whole strings. A block's values (addresses, paths,
 * statuses) mostly differ in their first six characters, so most values are placed by the long sort
 * alone, with no call per comparison and no object per value. Other value sets are sorted by their
 * UTF-8 bytes.
 */
final class ValueOrder {
  private ValueOrder() {}

  /** Bits of a packed long that hold the value's index. */
  private static final int INDEX_BITS = 16;

  private static final int INDEX_MASK = (1 << INDEX_BITS) - 1;

  /** Runs of equal prefixes up to this long are sorted by insertion. */
  private static final int INSERTION_RUN = 12;

  /**
   * The indexes of {@code values[0, count)} (distinct) in the UTF-8 byte order of the values;
   * {@code bytes[i]} set to value {@code i}'s UTF-8 bytes.
   */
  static int[] of(String[] values, int count, BytesRef[] bytes) {
    int widest = 0; // the largest character of any value
    for (int i = 0; i < count; i++) {
      widest = Math.max(widest, widest(values[i]));
    }
    int[] order;
    if (widest >= Character.MIN_SURROGATE) {
      order = byBytes(values, count, bytes);
    } else {
      order =
          count <= INDEX_MASK + 1
              ? byPrefix(values, count, widest < 0x100)
              : byString(values, count);
      for (int i = 0; i < count; i++) {
        bytes[i] = new BytesRef(values[i].getBytes(StandardCharsets.UTF_8));
      }
    }
    return order;
  }

  private static int widest(String value) {
    int widest = 0;
    for (int i = 0; i < value.length(); i++) {
      widest = Math.max(widest, value.charAt(i));
    }
    return widest;
  }

  /** UTF-16 order (that of UTF-8 here: no surrogates) by the prefix longs, then runs by string. */
  private static int[] byPrefix(String[] values, int count, boolean narrow) {
    long[] packed = new long[count];
    for (int i = 0; i < count; i++) {
      // flipped sign: the signed sort of the longs is the unsigned order of the prefixes
      packed[i] = (prefix(values[i], narrow) << INDEX_BITS | i) ^ Long.MIN_VALUE;
    }
    Arrays.sort(packed);
    int[] order = new int[count];
    for (int i = 0; i < count; i++) {
      order[i] = (int) packed[i] & INDEX_MASK;
    }
    for (int start = 0; start < count; ) {
      long prefix = packed[start] >>> INDEX_BITS;
      int end = start + 1;
      while (end < count && packed[end] >>> INDEX_BITS == prefix) {
        end++;
      }
      if (end - start > 1) {
        sortRun(values, order, start, end);
      }
      start = end;
    }
    return order;
  }

  /**
   * A value's first characters as the top 48 bits of a long (zero where it is shorter): six of 8
   * bits when {@code narrow}, else three of 16. Equal prefixes are ordered by the whole strings.
   */
  static long prefix(String value, boolean narrow) {
    int bits = narrow ? 8 : 16;
    int chars = 48 / bits;
    long prefix = 0;
    for (int i = 0; i < chars; i++) {
      prefix = prefix << bits | (i < value.length() ? value.charAt(i) : 0);
    }
    return prefix;
  }

  /** Sorts {@code order[start, end)} by the strings they index. */
  private static void sortRun(String[] values, int[] order, int start, int end) {
    if (end - start <= INSERTION_RUN) {
      for (int i = start + 1; i < end; i++) {
        int index = order[i];
        String value = values[index];
        int j = i - 1;
        for (; j >= start && values[order[j]].compareTo(value) > 0; j--) {
          order[j + 1] = order[j];
        }
        order[j + 1] = index;
      }
      return;
    }
    Integer[] run = new Integer[end - start];
    for (int i = start; i < end; i++) {
      run[i - start] = order[i];
    }
    Arrays.sort(run, (a, b) -> values[a].compareTo(values[b]));
    for (int i = start; i < end; i++) {
      order[i] = run[i - start];
    }
  }

  /** UTF-16 order by comparing the strings (more values than the packed index holds). */
  private static int[] byString(String[] values, int count) {
    int[] order = new int[count];
    for (int i = 0; i < count; i++) {
      order[i] = i;
    }
    sortRun(values, order, 0, count);
    return order;
  }

  /** Values with a surrogate: their UTF-8 bytes compared. */
  private static int[] byBytes(String[] values, int count, BytesRef[] bytes) {
    Integer[] boxed = new Integer[count];
    for (int i = 0; i < count; i++) {
      bytes[i] = new BytesRef(values[i]);
      boxed[i] = i;
    }
    Arrays.sort(boxed, (a, b) -> bytes[a].compareTo(bytes[b]));
    int[] order = new int[count];
    for (int i = 0; i < count; i++) {
      order[i] = boxed[i];
    }
    return order;
  }
}
