package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.ReorderCommand;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * {@code reverse} (every position, last first) and {@code tail N} (the last N, last first) on
 * pages: the pages are held — for {@code tail}, only those holding one of the last N positions so
 * far — and at the end the positions go out last first, {@code pageSize} at a time, each page laid
 * out by its rows' fields ({@link RowPaging#page}; {@code listed}: every row lists every column of
 * its page). Memory is counted per position kept.
 */
final class PageReorder extends QueuedPageOperator {
  private final long limit;
  private final int pageSize;
  private final MemoryTracker memory;
  private final boolean listed;
  private final ArrayDeque<Page> held = new ArrayDeque<>();
  private long heldRows;
  private long counted; // positions counted by memory: at most the limit

  PageReorder(ReorderCommand command, int pageSize, MemoryTracker memory, boolean listed) {
    this.listed = listed;
    this.limit = command.tail() ? command.limit() : Long.MAX_VALUE;
    this.pageSize = pageSize;
    this.memory = requireNonNull(memory, "memory is null");
  }

  @Override
  protected void process(Page page) {
    if (limit == 0) {
      return;
    }
    held.addLast(page);
    heldRows += page.positionCount();
    while (heldRows - held.getFirst().positionCount() >= limit) {
      heldRows -= held.removeFirst().positionCount(); // none of its positions is among the last
    }
    long keeping = Math.min(heldRows, limit);
    if (keeping > counted) {
      memory.add(MemoryTracker.ROW_BYTES * (keeping - counted));
      counted = keeping;
    }
  }

  @Override
  protected void onFinish() {
    List<Page> pages = new ArrayList<>(pageSize);
    List<Integer> positions = new ArrayList<>(pageSize);
    long left = Math.min(heldRows, limit);
    for (Iterator<Page> last = held.descendingIterator(); last.hasNext() && left > 0; ) {
      Page page = last.next();
      for (int p = page.positionCount() - 1; p >= 0 && left > 0; p--, left--) {
        pages.add(page);
        positions.add(p);
        if (positions.size() == pageSize) {
          emit(RowPaging.page(pages, positions, listed));
          pages.clear();
          positions.clear();
        }
      }
    }
    if (!positions.isEmpty()) {
      emit(RowPaging.page(pages, positions, listed));
    }
    close();
  }

  @Override
  public void close() {
    held.clear();
    heldRows = 0;
    memory.release();
  }
}
