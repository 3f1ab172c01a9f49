package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.ByteSlice;
import io.quarry.ql.exec.Values;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * {@link GroupOrder} when every group's first by-field is ASCII text: the order read from the keys'
 * bytes as they lie in the hash, without a {@code String} or a {@link Values.Sortable} per group.
 *
 * <p>For ASCII, {@link Values#NATURAL_ORDER}'s text order is byte order: lower-casing folds only
 * {@code A–Z}, and {@link String#compareTo} on ASCII characters is unsigned byte order. A text's
 * sort key is 8 of its folded bytes from position {@code p}, each plus one (ASCII bytes are below
 * 128, so a byte fits and 0 stands for "the text has ended": a shorter text sorts first, a {@code
 * \0} byte is not confused with the end). Texts are radix-sorted by the key at position 0; each run
 * of equal keys in which the texts go on is sorted again by the key at {@code p + 8}, and so on, so
 * a run of texts sharing a start costs one more pass over the run, never a full comparison of every
 * pair (the second key is read with the first, in id order, so runs tied on the first go back to no
 * key's bytes). (Skipping the characters every text shares, as the first key once did, fails as
 * soon as one text differs there: one {@code RARETERM} among 195,000 {@code SD…SL…} session ids
 * left 3 random characters in the key and a third of the groups tied.) A run whose texts have all
 * ended is equal when folded and is ordered by the exact bytes, then the other by-fields, then id.
 * A key that may be a number (it starts with a digit, a sign or a point) is parsed as {@link
 * Values#toNumber} does; numbers sort first by value, equal values by their exact bytes, then the
 * other by-fields, then id.
 */
final class AsciiKeyOrder {
  private static final int CHARACTERS = Long.BYTES; // per key
  private static final int INSERTION = 32; // runs up to this long are sorted by insertion

  private final GroupKeys keys;
  private final int width;
  private final ByteSlice slice = new ByteSlice();
  private final ByteSlice other = new ByteSlice();
  private long[] second; // [id] a text's key at position 8: runs tied on the first need no bytes
  private Values.Sortable[][] rest; // [field - 1][id], made for the ids that tie on field 0

  private AsciiKeyOrder(GroupKeys keys, int width) {
    this.keys = keys;
    this.width = width;
  }

  /**
   * The ids {@code 0 … keys.size()-1} in answer order, or null when some group's first by-field is
   * not ASCII (then {@link GroupOrder}'s general sort decides).
   */
  static int[] of(GroupKeys keys, int width) {
    return new AsciiKeyOrder(keys, width).sort();
  }

  private int[] sort() {
    int groups = keys.size();
    long[] first = new long[groups]; // a number's order-preserving bits, or the text's first key
    second = new long[groups]; // a text's second key, read while its bytes are at hand
    boolean[] isNumber = new boolean[groups];
    int numbers = 0;
    for (int id = 0; id < groups; id++) {
      keys.keySlice(id, 0, slice);
      byte[] bytes = slice.bytes();
      int from = slice.offset();
      int to = from + slice.length();
      for (int i = from; i < to; i++) {
        if (bytes[i] < 0) {
          return null;
        }
      }
      if (slice.length() > 0 && mayBeNumber(bytes[from])) {
        double value =
            Values.toNumber(new String(bytes, from, slice.length(), StandardCharsets.US_ASCII));
        if (!Double.isNaN(value)) {
          isNumber[id] = true;
          first[id] = numberBits(value) ^ Long.MIN_VALUE; // unsigned order
          numbers++;
          continue;
        }
      }
      first[id] = key(slice, 0);
      second[id] = key(slice, CHARACTERS);
    }
    int[] ids = new int[groups];
    long[] sortKeys = new long[groups];
    int nextNumber = 0;
    int nextText = numbers;
    for (int id = 0; id < groups; id++) {
      int at = isNumber[id] ? nextNumber++ : nextText++;
      ids[at] = id;
      sortKeys[at] = first[id];
    }
    GroupOrder.radixSort(sortKeys, ids, 0, numbers);
    for (int from = 0; from < numbers; ) {
      int to = from + 1;
      while (to < numbers && sortKeys[to] == sortKeys[from]) {
        to++;
      }
      if (to - from > 1) { // equal in value: by their exact text (0500, 500, 500.0, 5e2), then
        sortTies(ids, from, to, true); // the other by-fields — never by arrival (group id)
      }
      from = to;
    }
    sortTexts(ids, sortKeys, numbers, groups, 0, true);
    return ids;
  }

  /**
   * Sorts the texts {@code ids[from, to)}, alike in their first {@code position} folded bytes, by
   * their keys at {@code position} (already in {@code sortKeys} when {@code keyed}), then each run
   * of equal keys further.
   */
  private void sortTexts(
      int[] ids, long[] sortKeys, int from, int to, int position, boolean keyed) {
    if (to - from < 2) {
      return;
    }
    while (true) { // texts sharing a long start: one key after the other, not a call per key
      if (!keyed) {
        for (int i = from; i < to; i++) {
          if (position == CHARACTERS) {
            sortKeys[i] = second[ids[i]];
          } else {
            keys.keySlice(ids[i], 0, slice);
            sortKeys[i] = key(slice, position);
          }
        }
      }
      if (to - from <= INSERTION) {
        insertionSort(sortKeys, ids, from, to);
      } else {
        GroupOrder.radixSort(sortKeys, ids, from, to);
      }
      if (sortKeys[from] != sortKeys[to - 1] || (sortKeys[from] & 0xFF) == 0) {
        break; // several runs, or one whose texts all ended
      }
      position += CHARACTERS;
      keyed = false;
    }
    for (int start = from; start < to; ) {
      int end = start + 1;
      while (end < to && sortKeys[end] == sortKeys[start]) {
        end++;
      }
      if (end - start > 1) {
        if ((sortKeys[start] & 0xFF) == 0) { // every text of the run ended: equal when folded
          sortTies(ids, start, end, true);
        } else {
          sortTexts(ids, sortKeys, start, end, position + CHARACTERS, false);
        }
      }
      start = end;
    }
  }

  /** A stable insertion sort of {@code keys[from, to)} as unsigned numbers, ids moved alike. */
  private static void insertionSort(long[] keys, int[] ids, int from, int to) {
    for (int i = from + 1; i < to; i++) {
      long key = keys[i];
      int id = ids[i];
      int j = i - 1;
      while (j >= from && Long.compareUnsigned(keys[j], key) > 0) {
        keys[j + 1] = keys[j];
        ids[j + 1] = ids[j];
        j--;
      }
      keys[j + 1] = key;
      ids[j + 1] = id;
    }
  }

  /**
   * Sorts ids whose first by-field is equal (folded, for texts): texts by their exact bytes, then
   * by the other by-fields, then by id (the ids come in id order, and the sort is stable).
   */
  private void sortTies(int[] ids, int from, int to, boolean texts) {
    if (!texts && width == 1) {
      return;
    }
    Integer[] run = new Integer[to - from];
    for (int i = from; i < to; i++) {
      run[i - from] = ids[i];
    }
    Arrays.sort(run, (a, b) -> compareTies(a, b, texts));
    for (int i = from; i < to; i++) {
      ids[i] = run[i - from];
    }
  }

  private int compareTies(int a, int b, boolean texts) {
    if (texts) {
      keys.keySlice(a, 0, slice);
      keys.keySlice(b, 0, other);
      int c =
          Arrays.compareUnsigned(
              slice.bytes(),
              slice.offset(),
              slice.offset() + slice.length(),
              other.bytes(),
              other.offset(),
              other.offset() + other.length());
      if (c != 0) {
        return c;
      }
    }
    for (int field = 1; field < width; field++) {
      int c = sortable(a, field).compareTo(sortable(b, field));
      if (c == 0 && sortable(a, field).text() == null) { // equal in value: by exact text
        c = keys.key(a, field).compareTo(keys.key(b, field));
      }
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private Values.Sortable sortable(int id, int field) {
    if (rest == null) {
      rest = new Values.Sortable[width - 1][];
    }
    if (rest[field - 1] == null) {
      rest[field - 1] = new Values.Sortable[keys.size()];
    }
    Values.Sortable value = rest[field - 1][id];
    if (value == null) {
      value = Values.Sortable.of(keys.key(id, field));
      rest[field - 1][id] = value;
    }
    return value;
  }

  /**
   * Whether {@code ids} (every group once) is already the answer order of one by-field's keys —
   * each key after the last by the order this class sorts in, strictly: its folded bytes, then its
   * exact bytes — checked in one pass over neighbours instead of a sort. False as soon as a key is
   * not ASCII or may be a number (those the sort orders), or two neighbours are out of order.
   */
  static boolean inOrder(GroupKeys keys, int[] ids) {
    ByteSlice previous = new ByteSlice();
    ByteSlice next = new ByteSlice();
    for (int i = 0; i < ids.length; i++) {
      keys.keySlice(ids[i], 0, next);
      byte[] bytes = next.bytes();
      int from = next.offset();
      int to = from + next.length();
      for (int at = from; at < to; at++) {
        if (bytes[at] < 0) {
          return false;
        }
      }
      if (next.length() > 0 && mayBeNumber(bytes[from])) {
        return false;
      }
      if (i > 0 && compareText(previous, next) >= 0) {
        return false;
      }
      ByteSlice swap = previous;
      previous = next;
      next = swap;
    }
    return true;
  }

  /** Two ASCII texts in the answer's order: folded, then exactly (unsigned bytes). */
  private static int compareText(ByteSlice a, ByteSlice b) {
    byte[] x = a.bytes();
    byte[] y = b.bytes();
    int n = Math.min(a.length(), b.length());
    int exact = 0;
    for (int i = 0; i < n; i++) {
      int c = x[a.offset() + i];
      int d = y[b.offset() + i];
      if (c != d) {
        int foldedC = c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
        int foldedD = d >= 'A' && d <= 'Z' ? d + ('a' - 'A') : d;
        if (foldedC != foldedD) {
          return foldedC - foldedD;
        }
        if (exact == 0) {
          exact = c - d;
        }
      }
    }
    if (a.length() != b.length()) {
      return a.length() - b.length();
    }
    return exact;
  }

  /**
   * The folded bytes {@code [position, position + 8)} of an ASCII text, each plus one, 0 past its
   * end, packed big-endian: unsigned order is the folded texts' order wherever two keys differ.
   */
  private static long key(ByteSlice text, int position) {
    byte[] bytes = text.bytes();
    int length = text.length();
    int offset = text.offset();
    long key = 0;
    for (int i = position; i < position + CHARACTERS; i++) {
      int c = 0;
      if (i < length) {
        int b = bytes[offset + i];
        c = (b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b) + 1;
      }
      key = (key << Byte.SIZE) | c;
    }
    return key;
  }

  /** Whether a text starting with {@code first} can be a number ({@code [+-.0-9]…}). */
  private static boolean mayBeNumber(byte first) {
    return (first >= '0' && first <= '9') || first == '+' || first == '-' || first == '.';
  }

  /** A double's bits, flipped so that signed long order is numeric order. */
  private static long numberBits(double number) {
    long bits = Double.doubleToLongBits(number);
    return bits ^ ((bits >> 63) & Long.MAX_VALUE);
  }
}
