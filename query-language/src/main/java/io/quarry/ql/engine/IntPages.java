package io.quarry.ql.engine;

import java.util.Arrays;

/**
 * A growable {@code int} array held as fixed pages of {@link #PAGE} ints (64 KiB); the growth rules
 * and why are {@link PagedArray}'s. Index {@code i} lies in {@link #page}{@code (i)} at {@link
 * #offset}{@code (i)}. Not thread-safe.
 */
public final class IntPages extends PagedArray {
  /** log2 of the ints per page. */
  public static final int PAGE_SHIFT = 14;

  /** Ints per page: 16,384 (64 KiB). */
  public static final int PAGE = 1 << PAGE_SHIFT;

  private static final int MASK = PAGE - 1;

  private int[][] pages; // the table PagedArray grows

  /** An array of {@link #capacity()} zeros, at least {@code capacity}. */
  public IntPages(int capacity) {
    this(new int[1][MIN], capacity);
  }

  private IntPages(int[][] pages, int capacity) {
    super(PAGE_SHIFT, pages);
    this.pages = pages;
    grow(capacity);
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
      int end = runEnd(from, to);
      Arrays.fill(pages[from >>> PAGE_SHIFT], from & MASK, (end - 1 & MASK) + 1, value);
      from = end;
    }
  }

  @Override
  int elementShift() {
    return 2;
  }

  @Override
  Object newPage(int length) {
    return new int[length];
  }

  @Override
  void pageTable(Object[] table) {
    pages = (int[][]) table;
  }
}
