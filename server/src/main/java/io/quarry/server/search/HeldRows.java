package io.quarry.server.search;

import io.quarry.plugin.api.data.Page;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows an {@link EventListing} holds between the commands' pages and its own: whole pages taken
 * in arrival order, handed on a given number of rows at a time, a handed-on run of rows spanning as
 * many pages as it needs.
 */
final class HeldRows {
  /**
   * Rows {@code [ranges[i][0], ranges[i][1])} of each {@code pages[i]}, {@code count} in all: the
   * rows of one page of the listing.
   */
  record Cut(List<Page> pages, List<int[]> ranges, int count) {}

  /** The key of position {@code p} of a cut's {@code i}-th page. */
  static long row(int i, int p) {
    return ((long) i << 32) | p;
  }

  private final List<Page> held = new ArrayList<>();
  private int heldFrom; // the first position of held.get(0) not yet handed on
  private int heldRows; // positions held, from heldFrom on

  void add(Page page) {
    held.add(page);
    heldRows += page.positionCount();
  }

  /** The rows held and not yet handed on. */
  int rows() {
    return heldRows;
  }

  /** The first {@code count} held rows, no longer held. */
  Cut take(int count) {
    List<Page> pages = new ArrayList<>();
    List<int[]> ranges = new ArrayList<>(); // [from, to) of each page
    int left = count;
    while (left > 0) {
      Page page = held.getFirst();
      int to = Math.min(page.positionCount(), heldFrom + left);
      pages.add(page);
      ranges.add(new int[] {heldFrom, to});
      left -= to - heldFrom;
      if (to == page.positionCount()) {
        held.removeFirst();
        heldFrom = 0;
      } else {
        heldFrom = to;
      }
    }
    heldRows -= count;
    return new Cut(pages, ranges, count);
  }

  /** Drops what is held. */
  void clear() {
    held.clear();
    heldFrom = 0;
    heldRows = 0;
  }
}
