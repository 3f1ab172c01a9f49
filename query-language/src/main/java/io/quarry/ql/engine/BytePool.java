package io.quarry.ql.engine;

import java.util.Arrays;

/**
 * Append-only byte records — a hash's keys, each where it was written until the pool is cleared —
 * in pages of {@link #PAGE} bytes (64 KiB), as Lucene's {@code ByteBlockPool} keeps terms: a record
 * never crosses a page, so it is read where it lies ({@link #page} and {@link #offset} of its
 * address), and the pool grows by a page instead of copying every key written so far into an array
 * twice as large (200,000 session ids were 4–8 MiB copies, each an object G1 allocates as
 * humongous). The first page doubles from 1 KiB while it is the only one; a record longer than a
 * page gets a page of its own. Addresses are ints: {@code page << 16 | offset}, so at most 32,767
 * pages (2 GiB). Not thread-safe.
 */
public final class BytePool {
  private static final int PAGE_SHIFT = 16;

  /** Bytes per page: 65,536. */
  public static final int PAGE = 1 << PAGE_SHIFT;

  private static final int MASK = PAGE - 1;
  private static final int MIN = 1024;

  private byte[][] pages = {new byte[MIN]};
  private int page; // the page being written
  private int used; // bytes written in it
  private long bytes = MIN;

  /**
   * Reserves {@code length} bytes for a record, in one page, and returns its address: the record is
   * {@code page(address)[offset(address), + length)}.
   */
  public int reserve(int length) {
    byte[] current = pages[page];
    if (used + length > current.length || used >= PAGE) { // an offset is below PAGE
      if (current.length < PAGE && used + length <= PAGE) { // the first page, still growing
        int size =
            Math.min(
                PAGE, Integer.highestOneBit(Math.max(used + length, 2 * current.length) - 1) << 1);
        bytes += size - current.length;
        pages[0] = Arrays.copyOf(current, size);
      } else {
        if (page + 1 > Short.MAX_VALUE) {
          throw new IllegalStateException("more than 2 GiB of keys");
        }
        page++;
        if (page == pages.length) {
          pages = Arrays.copyOf(pages, page + (page >> 1) + 1);
        }
        pages[page] = new byte[Math.max(PAGE, length)];
        bytes += pages[page].length;
        used = 0;
      }
    }
    int address = page << PAGE_SHIFT | used;
    used += length;
    return address;
  }

  /** The page a record's address points into. */
  public byte[] page(int address) {
    return pages[address >>> PAGE_SHIFT];
  }

  /** Where a record's address points in its {@link #page}. */
  public static int offset(int address) {
    return address & MASK;
  }

  /** Forgets every record; keeps the first page. */
  public void clear() {
    Arrays.fill(pages, 1, pages.length, null);
    page = 0;
    used = 0;
    bytes = pages[0].length;
  }

  /** Bytes the pages take. */
  public long bytes() {
    return bytes;
  }
}
