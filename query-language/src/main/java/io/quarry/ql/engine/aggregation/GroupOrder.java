package io.quarry.ql.engine.aggregation;

import io.quarry.ql.exec.Values;
import java.util.Arrays;

/**
 * The order of a hash aggregation's groups in its answer: by the by-fields' values in {@link
 * Values#NATURAL_ORDER} (numbers first, numerically; text case-insensitively, then exactly),
 * numbers equal in value ({@code 0500}, {@code 500}, {@code 500.0}) by their exact text — not by
 * group id, which follows arrival and so differs between the layouts and between thread schedules.
 *
 * <p>Sorting 200,000 session ids with a comparator over {@link Values.Sortable} objects spent a
 * sixth of {@code stats … by JSESSIONID} chasing pointers. Here each group's first by-field gets a
 * 64-bit key compared as a primitive — a number's order-preserving bits, or the first characters of
 * its lower-cased text, packed big-endian, skipping the positions where every text has the same
 * character — and the full comparison runs only where those keys tie. The ids are sorted in place
 * by an introsort over an {@code int[]}.
 */
final class GroupOrder {
  private static final int INSERTION = 16;

  private final Values.Sortable[][] sortables; // [field][id]
  private final GroupKeys keys; // the texts of numbers equal in value
  private final boolean[] text; // first field: the group's value is text (numbers sort first)
  private final long[] prefix; // first field: the primitive key described above

  private GroupOrder(Values.Sortable[][] sortables, GroupKeys keys) {
    this.sortables = sortables;
    this.keys = keys;
    Values.Sortable[] first = sortables[0];
    int groups = first.length;
    text = new boolean[groups];
    prefix = new long[groups];
    boolean latin1 = true;
    String some = null; // a text, and which of its first WINDOW characters every text shares
    long shared = 0; // bit i: every text has some's character i (so it never decides an order)
    for (Values.Sortable value : first) {
      if (value.text() != null) {
        String folded = value.folded();
        latin1 &= isLatin1(folded);
        if (some == null) {
          some = folded;
          shared = folded.length() >= WINDOW ? -1L : (1L << folded.length()) - 1;
        } else if (shared != 0) {
          shared &= sameCharacters(some, folded, shared);
        }
      }
    }
    int[] positions = deciding(shared, latin1 ? Long.BYTES : Long.BYTES / 2);
    for (int id = 0; id < groups; id++) {
      Values.Sortable value = first[id];
      text[id] = value.text() != null;
      prefix[id] =
          text[id] ? textPrefix(value.folded(), positions, latin1) : numberBits(value.number());
    }
  }

  /** How many leading characters of the texts are looked at for characters they all share. */
  private static final int WINDOW = Long.SIZE;

  /** Which of the positions in {@code shared} {@code a} and {@code b} both have, alike. */
  private static long sameCharacters(String a, String b, long shared) {
    long same = 0;
    for (long rest = shared; rest != 0; rest &= rest - 1) {
      int i = Long.numberOfTrailingZeros(rest);
      if (i < b.length() && a.charAt(i) == b.charAt(i)) {
        same |= 1L << i;
      }
    }
    return same;
  }

  /**
   * The first {@code count} character positions not in {@code shared}: only those can tell two
   * texts apart before the full comparison (the window's, then any after it).
   */
  private static int[] deciding(long shared, int count) {
    int[] positions = new int[count];
    int n = 0;
    for (int i = 0; n < count; i++) {
      if (i >= WINDOW || (shared & (1L << i)) == 0) {
        positions[n++] = i;
      }
    }
    return positions;
  }

  /**
   * The ids {@code 0 … keys.size()-1} in answer order, by the first {@code width} by-fields (all
   * ids in id order when there are none): from the keys' bytes when every first by-field is ASCII
   * ({@link AsciiKeyOrder}), else by the general sort below.
   */
  static int[] of(GroupKeys keys, int width) {
    int groups = keys.size();
    int[] ids = new int[groups];
    for (int id = 0; id < groups; id++) {
      ids[id] = id;
    }
    if (width == 0 || groups < 2) {
      return ids;
    }
    int[] likely = width == 1 ? keys.likelyOrder() : null;
    if (likely != null && likely.length == groups && AsciiKeyOrder.inOrder(keys, likely)) {
      return likely.clone();
    }
    int[] ascii = AsciiKeyOrder.of(keys, width);
    if (ascii != null) {
      return ascii;
    }
    Values.Sortable[][] sortables = new Values.Sortable[width][groups];
    for (int k = 0; k < width; k++) {
      for (int id = 0; id < groups; id++) {
        sortables[k][id] = Values.Sortable.of(keys.key(id, k));
      }
    }
    new GroupOrder(sortables, keys).sortAll(ids);
    return ids;
  }

  /**
   * Sorts {@code ids} (all of them, in id order) in two steps: numbers, then texts, each by its
   * 64-bit key with a radix sort that carries the ids along (no comparator, no look-up of another
   * array per comparison, and no pass over a byte every key shares); then each run of equal keys by
   * the full comparison.
   */
  private void sortAll(int[] ids) {
    int groups = ids.length;
    long[] keys = new long[groups];
    int numbers = 0;
    for (int id = 0; id < groups; id++) {
      numbers += text[id] ? 0 : 1;
    }
    int nextNumber = 0;
    int nextText = numbers;
    for (int id = 0; id < groups; id++) {
      int at = text[id] ? nextText++ : nextNumber++;
      ids[at] = id;
      // unsigned order: a number's bits are in signed order
      keys[at] = text[id] ? prefix[id] : prefix[id] ^ Long.MIN_VALUE;
    }
    radixSort(keys, ids, 0, numbers);
    radixSort(keys, ids, numbers, groups);
    for (int from = 0; from < groups; ) {
      int to = from + 1;
      while (to < groups && keys[to] == keys[from] && (to < numbers) == (from < numbers)) {
        to++;
      }
      if (to - from > 1) {
        sort(ids, from, to, 2 * (32 - Integer.numberOfLeadingZeros(to - from)));
      }
      from = to;
    }
  }

  /**
   * A stable least-significant-byte-first radix sort of {@code keys[from, to)} as unsigned numbers,
   * {@code ids} moved alike.
   */
  static void radixSort(long[] keys, int[] ids, int from, int to) {
    int n = to - from;
    if (n < 2) {
      return;
    }
    long[] sourceKeys = keys;
    int[] sourceIds = ids;
    int source = from;
    long[] targetKeys = new long[n];
    int[] targetIds = new int[n];
    int target = 0;
    int[] starts = new int[257];
    for (int shift = 0; shift < Long.SIZE; shift += Byte.SIZE) {
      Arrays.fill(starts, 0);
      for (int i = 0; i < n; i++) {
        starts[((int) (sourceKeys[source + i] >>> shift) & 0xFF) + 1]++;
      }
      if (starts[((int) (sourceKeys[source] >>> shift) & 0xFF) + 1] == n) {
        continue; // every key has this byte
      }
      for (int b = 0; b < 256; b++) {
        starts[b + 1] += starts[b];
      }
      for (int i = 0; i < n; i++) {
        long key = sourceKeys[source + i];
        int at = target + starts[(int) (key >>> shift) & 0xFF]++;
        targetKeys[at] = key;
        targetIds[at] = sourceIds[source + i];
      }
      long[] keysWere = sourceKeys;
      int[] idsWere = sourceIds;
      int sourceWas = source;
      sourceKeys = targetKeys;
      sourceIds = targetIds;
      source = target;
      targetKeys = keysWere;
      targetIds = idsWere;
      target = sourceWas;
    }
    if (sourceKeys != keys) {
      System.arraycopy(sourceKeys, source, keys, from, n);
      System.arraycopy(sourceIds, source, ids, from, n);
    }
  }

  private int compare(int a, int b) {
    if (text[a] != text[b]) {
      return text[a] ? 1 : -1;
    }
    int c =
        text[a] ? Long.compareUnsigned(prefix[a], prefix[b]) : Long.compare(prefix[a], prefix[b]);
    if (c != 0) {
      return c;
    }
    for (int k = 0; k < sortables.length; k++) {
      c = sortables[k][a].compareTo(sortables[k][b]);
      if (c == 0 && sortables[k][a].text() == null) {
        // numbers equal in value (0500, 500, 500.0): by their exact text, never by arrival
        c = keys.key(a, k).compareTo(keys.key(b, k));
      }
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a, b);
  }

  /**
   * Introsort of {@code ids[from, to)}: quicksort, insertion sort for short runs, heapsort deep.
   */
  private void sort(int[] ids, int from, int to, int depth) {
    while (to - from > INSERTION) {
      if (depth-- == 0) {
        heapSort(ids, from, to);
        return;
      }
      int mid = (from + to) >>> 1;
      medianToFrom(ids, from, mid, to - 1);
      int pivot = ids[from];
      int lo = from + 1;
      int hi = to - 1;
      while (true) {
        while (lo <= hi && compare(ids[lo], pivot) < 0) {
          lo++;
        }
        while (lo <= hi && compare(ids[hi], pivot) > 0) {
          hi--;
        }
        if (lo >= hi) {
          break;
        }
        swap(ids, lo++, hi--);
      }
      swap(ids, from, hi); // the pivot to its place: [from, hi) <= pivot <= (hi, to)
      if (hi - from < to - hi - 1) {
        sort(ids, from, hi, depth);
        from = hi + 1;
      } else {
        sort(ids, hi + 1, to, depth);
        to = hi;
      }
    }
    for (int i = from + 1; i < to; i++) {
      int id = ids[i];
      int j = i - 1;
      while (j >= from && compare(ids[j], id) > 0) {
        ids[j + 1] = ids[j];
        j--;
      }
      ids[j + 1] = id;
    }
  }

  /** Puts the median of {@code ids[a], ids[b], ids[c]} at {@code a}. */
  private void medianToFrom(int[] ids, int a, int b, int c) {
    if (compare(ids[b], ids[a]) < 0) {
      swap(ids, a, b);
    }
    if (compare(ids[c], ids[b]) < 0) {
      swap(ids, b, c);
      if (compare(ids[b], ids[a]) < 0) {
        swap(ids, a, b);
      }
    }
    swap(ids, a, b);
  }

  private void heapSort(int[] ids, int from, int to) {
    int n = to - from;
    for (int i = n / 2 - 1; i >= 0; i--) {
      siftDown(ids, from, i, n);
    }
    for (int end = n - 1; end > 0; end--) {
      swap(ids, from, from + end);
      siftDown(ids, from, 0, end);
    }
  }

  private void siftDown(int[] ids, int from, int root, int n) {
    while (true) {
      int child = 2 * root + 1;
      if (child >= n) {
        return;
      }
      if (child + 1 < n && compare(ids[from + child], ids[from + child + 1]) < 0) {
        child++;
      }
      if (compare(ids[from + root], ids[from + child]) >= 0) {
        return;
      }
      swap(ids, from + root, from + child);
      root = child;
    }
  }

  private static void swap(int[] ids, int i, int j) {
    int t = ids[i];
    ids[i] = ids[j];
    ids[j] = t;
  }

  /** A double's bits, flipped so that signed long order is numeric order. */
  private static long numberBits(double number) {
    long bits = Double.doubleToLongBits(number);
    return bits ^ ((bits >> 63) & Long.MAX_VALUE);
  }

  /**
   * The characters of {@code folded} at {@code positions} — the first ones where not every text of
   * the sort has the same character — packed big-endian and zero-padded (a shorter text's missing
   * characters), so that unsigned order agrees with {@link String#compareTo} wherever the keys
   * differ: 8 characters of 8 bits when every text of the sort is Latin-1, else 4 of 16. Skipping
   * the shared characters matters for keys such as session ids ({@code SD0SL…}), whose first
   * characters alone tie for most groups and send the sort to the full comparison.
   */
  private static long textPrefix(String folded, int[] positions, boolean latin1) {
    int bits = latin1 ? 8 : 16;
    long key = 0;
    for (int i : positions) {
      key = (key << bits) | (i < folded.length() ? folded.charAt(i) : 0);
    }
    return key;
  }

  private static boolean isLatin1(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) > 0xFF) {
        return false;
      }
    }
    return true;
  }
}
