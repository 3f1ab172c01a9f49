package io.quarry.ql.engine.aggregation;

import io.quarry.ql.exec.Values;

/**
 * The order of a hash aggregation's groups in its answer: by the by-fields' values in {@link
 * Values#NATURAL_ORDER} (numbers first, numerically; text case-insensitively, then exactly), ties
 * in group-id order.
 *
 * <p>Sorting 200,000 session ids with a comparator over {@link Values.Sortable} objects spent a
 * sixth of {@code stats … by JSESSIONID} chasing pointers. Here each group's first by-field gets a
 * 64-bit key compared as a primitive — a number's order-preserving bits, or the first characters of
 * its lower-cased text packed big-endian — and the full comparison runs only where those keys tie.
 * The ids are sorted in place by an introsort over an {@code int[]}.
 */
final class GroupOrder {
  private static final int INSERTION = 16;

  private final Values.Sortable[][] sortables; // [field][id]
  private final boolean[] text; // first field: the group's value is text (numbers sort first)
  private final long[] prefix; // first field: the primitive key described above

  private GroupOrder(Values.Sortable[][] sortables) {
    this.sortables = sortables;
    Values.Sortable[] first = sortables[0];
    int groups = first.length;
    text = new boolean[groups];
    prefix = new long[groups];
    boolean latin1 = true;
    for (Values.Sortable value : first) {
      if (value.text() != null) {
        latin1 &= isLatin1(value.folded());
      }
    }
    for (int id = 0; id < groups; id++) {
      Values.Sortable value = first[id];
      text[id] = value.text() != null;
      prefix[id] = text[id] ? textPrefix(value.folded(), latin1) : numberBits(value.number());
    }
  }

  /**
   * The ids {@code 0 … keys.size()-1} in answer order, by the first {@code width} by-fields (all
   * ids in id order when there are none).
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
    Values.Sortable[][] sortables = new Values.Sortable[width][groups];
    for (int k = 0; k < width; k++) {
      for (int id = 0; id < groups; id++) {
        sortables[k][id] = Values.Sortable.of(keys.key(id, k));
      }
    }
    new GroupOrder(sortables).sort(ids, 0, groups, 2 * (32 - Integer.numberOfLeadingZeros(groups)));
    return ids;
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
    for (Values.Sortable[] field : sortables) {
      c = field[a].compareTo(field[b]);
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
   * The first characters of {@code folded}, packed big-endian and zero-padded so that unsigned
   * order agrees with {@link String#compareTo} wherever the keys differ: 8 characters of 8 bits
   * when every text of the sort is Latin-1, else 4 of 16.
   */
  private static long textPrefix(String folded, boolean latin1) {
    int bits = latin1 ? 8 : 16;
    int chars = 64 / bits;
    long key = 0;
    for (int i = 0; i < chars; i++) {
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
