package io.quarry.ql.engine;

import java.util.Arrays;

/**
 * A growable {@code long} array held as fixed pages of {@link #PAGE} longs (64 KiB), as
 * Elasticsearch's {@code BigArrays} holds large arrays: growing past a page appends pages instead
 * of copying the whole array, and no page reaches the size at which G1 allocates an object as
 * humongous (half a region: 1 MiB at the 2 MiB regions of a 4 GiB heap). A per-group state of
 * 200,000 groups was a 6 MiB array copied at each doubling; each such array started a concurrent GC
 * cycle of its own.
 *
 * <p>Index {@code i} lies in {@link #page}{@code (i)} at {@link #offset}{@code (i)}: loops over a
 * hot array read the page once per element group and index it directly. Below a page the array is
 * one page whose length is a power of two that doubles (small aggregations stay small); a run of
 * {@code 2^k <= PAGE} elements starting at a multiple of {@code 2^k} never crosses a page. Not
 * thread-safe.
 */
public final class LongPages {
  /** log2 of the longs per page. */
  public static final int PAGE_SHIFT = 13;

  /** Longs per page: 8,192 (64 KiB). */
  public static final int PAGE = 1 << PAGE_SHIFT;

  private static final int MASK = PAGE - 1;
  private static final int MIN = 16;

  private long[][] pages = {new long[MIN]};
  private int capacity = MIN;

  /** An array of {@link #capacity()} zeros, at least {@code capacity}. */
  public LongPages(int capacity) {
    grow(capacity);
  }

  /** The number of elements there is room for (every one readable, zero until set). */
  public int capacity() {
    return capacity;
  }

  /**
   * Makes room for at least {@code size} elements, the new ones zero: at least doubling while the
   * array is one page, then whole pages appended (nothing copied but the page table).
   */
  public void grow(int size) {
    if (size <= capacity) {
      return;
    }
    if (capacity < PAGE) {
      int first = Math.min(PAGE, Integer.highestOneBit(Math.max(size, 2 * capacity) - 1) << 1);
      pages[0] = Arrays.copyOf(pages[0], first);
      capacity = first;
    }
    if (size > capacity) {
      int count = (int) (((long) size + MASK) >>> PAGE_SHIFT);
      if (count > pages.length) {
        pages = Arrays.copyOf(pages, Math.max(count, pages.length + (pages.length >> 1)));
      }
      for (int p = capacity >>> PAGE_SHIFT; p < count; p++) {
        pages[p] = new long[PAGE];
      }
      capacity = (int) Math.min(Integer.MAX_VALUE, (long) count << PAGE_SHIFT);
    }
  }

  /** The page that holds element {@code index}. */
  public long[] page(int index) {
    return pages[index >>> PAGE_SHIFT];
  }

  /** Where element {@code index} lies in its {@link #page}. */
  public static int offset(int index) {
    return index & MASK;
  }

  public long get(int index) {
    return pages[index >>> PAGE_SHIFT][index & MASK];
  }

  public void set(int index, long value) {
    pages[index >>> PAGE_SHIFT][index & MASK] = value;
  }

  /** Adds {@code delta} to element {@code index}. */
  public void add(int index, long delta) {
    pages[index >>> PAGE_SHIFT][index & MASK] += delta;
  }

  /** Sets elements {@code [from, to)} to {@code value}. */
  public void fill(int from, int to, long value) {
    while (from < to) {
      int end = Math.min(to, (from | MASK) + 1);
      Arrays.fill(pages[from >>> PAGE_SHIFT], from & MASK, (end - 1 & MASK) + 1, value);
      from = end;
    }
  }

  /** Bytes the pages take. */
  public long bytes() {
    return (long) capacity * Long.BYTES + (long) pages.length * 8;
  }
}
