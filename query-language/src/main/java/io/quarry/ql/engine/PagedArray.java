package io.quarry.ql.engine;

import java.util.Arrays;

/**
 * The shape {@link LongPages} and {@link IntPages} share: a growable primitive array held as fixed
 * pages of 64 KiB, as Elasticsearch's {@code BigArrays} holds large arrays. Growing past a page
 * appends pages instead of copying the whole array, and no page reaches the size at which G1
 * allocates an object as humongous (half a region: 1 MiB at the 2 MiB regions of a 4 GiB heap). A
 * per-group state of 200,000 groups was a 6 MiB array copied at each doubling; each such array
 * started a concurrent GC cycle of its own.
 *
 * <p>Index {@code i} lies in page {@code i >>> pageShift} at offset {@code i & (pageSize - 1)}:
 * loops over a hot array read the page once per element group and index it directly. Below a page
 * the array is one page whose length is a power of two that doubles (small aggregations stay
 * small); a run of {@code 2^k <= pageSize} elements starting at a multiple of {@code 2^k} never
 * crosses a page.
 *
 * <p>This class owns the growth: the arithmetic, the page table and the pages, held as {@code
 * Object[]} (at run time the subclass's {@code long[][]} or {@code int[][]}). A subclass makes a
 * page of its type ({@link #newPage}) and keeps the same table in a typed field, told of each new
 * table ({@link #pageTable}), so that its element accessors index it without a cast. Not
 * thread-safe.
 */
public abstract sealed class PagedArray permits LongPages, IntPages {
  /** The elements of a new array's one page. */
  static final int MIN = 16;

  private final int pageShift;
  private final int pageSize;
  private Object[] table;
  private int capacity = MIN;

  /**
   * @param pageShift log2 of the elements per page (64 KiB over the element's width)
   * @param table the page table: one page of {@link #MIN} elements
   */
  PagedArray(int pageShift, Object[] table) {
    this.pageShift = pageShift;
    this.pageSize = 1 << pageShift;
    this.table = table;
  }

  /** The number of elements there is room for (every one readable, zero until set). */
  public final int capacity() {
    return capacity;
  }

  /**
   * Makes room for at least {@code size} elements, the new ones zero: at least doubling while the
   * array is one page, then whole pages appended (nothing copied but the page table).
   */
  public final void grow(int size) {
    if (size <= capacity) {
      return;
    }
    if (capacity < pageSize) {
      int first = Math.min(pageSize, Integer.highestOneBit(Math.max(size, 2 * capacity) - 1) << 1);
      Object page = newPage(first);
      System.arraycopy(table[0], 0, page, 0, capacity);
      table[0] = page;
      capacity = first;
    }
    if (size > capacity) {
      int count = (int) (((long) size + pageSize - 1) >>> pageShift);
      if (count > table.length) {
        table = Arrays.copyOf(table, Math.max(count, table.length + (table.length >> 1)));
        pageTable(table);
      }
      for (int p = capacity >>> pageShift; p < count; p++) {
        table[p] = newPage(pageSize);
      }
      capacity = (int) Math.min(Integer.MAX_VALUE, (long) count << pageShift);
    }
  }

  /** Bytes the pages take. */
  public final long bytes() {
    return ((long) capacity << elementShift()) + (long) table.length * 8;
  }

  /**
   * The end of the run of {@code [from, to)} that starts at {@code from} and stays on its page: a
   * subclass's {@code fill} calls {@code Arrays.fill} once per run.
   */
  final int runEnd(int from, int to) {
    return Math.min(to, (from | (pageSize - 1)) + 1);
  }

  /** log2 of the element's bytes. */
  abstract int elementShift();

  /** A new page of {@code length} zeros ({@code new long[length]}). */
  abstract Object newPage(int length);

  /** The page table grew: {@code table} (a copy) is the one to index from now on. */
  abstract void pageTable(Object[] table);
}
