package io.quarry.ql.engine;

import java.util.Arrays;

/**
 * A growable {@code int} array held as fixed pages of {@link #PAGE} ints (64 KiB), so that it never
 * needs an object G1 allocates as humongous and grows without copying past its first page: {@link
 * LongPages} for ints (see there). Not thread-safe.
 */
public final class IntPages {
  /** log2 of the ints per page. */
  public static final int PAGE_SHIFT = 14;

  /** Ints per page: 16,384 (64 KiB). */
  public static final int PAGE = 1 << PAGE_SHIFT;

  private static final int MASK = PAGE - 1;
  private static final int MIN = 16;

  private int[][] pages = {new int[MIN]};
  private int capacity = MIN;

  /** An array of {@link #capacity()} zeros, at least {@code capacity}. */
  public IntPages(int capacity) {
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
        pages[p] = new int[PAGE];
      }
      capacity = (int) Math.min(Integer.MAX_VALUE, (long) count << PAGE_SHIFT);
    }
  }

  /** The page that holds element {@code index}. */
  public int[] page(int index) {
    return pages[index >>> PAGE_SHIFT];
  }

  /** Where element {@code index} lies in its {@link #page}. */
  public static int offset(int index) {
    return index & MASK;
  }

  public int get(int index) {
    return pages[index >>> PAGE_SHIFT][index & MASK];
  }

  public void set(int index, int value) {
    pages[index >>> PAGE_SHIFT][index & MASK] = value;
  }

  /** Adds {@code delta} to element {@code index}. */
  public void add(int index, int delta) {
    pages[index >>> PAGE_SHIFT][index & MASK] += delta;
  }

  /** Sets elements {@code [from, to)} to {@code value}. */
  public void fill(int from, int to, int value) {
    while (from < to) {
      int end = Math.min(to, (from | MASK) + 1);
      Arrays.fill(pages[from >>> PAGE_SHIFT], from & MASK, (end - 1 & MASK) + 1, value);
      from = end;
    }
  }

  /** Bytes the pages take. */
  public long bytes() {
    return (long) capacity * Integer.BYTES + (long) pages.length * 8;
  }
}
