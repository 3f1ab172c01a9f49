package io.quarry.ql.exec;

import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Page;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Whether a reduce chain ({@link PageReduce}) wants more input: its {@code head}s, its writing
 * steps ({@code outputlookup}, a time-ordered table: each takes every row but for a head before it)
 * and whether the answer's end took its last page. A chain's source is finished once nothing more
 * is wanted: a head before the first writer has its rows, or (no writer) the answer is full or any
 * head has its rows. After each writer a gate ({@link #gate}) drops the pages no one after it wants
 * any more: a head between it and the next writer has its rows, or (the last writer) the answer is
 * full or a head after it has its rows — so the commands after a writer stop working while the
 * writer still takes every row.
 */
final class ReduceHeads {
  private final List<Head> heads = new ArrayList<>();
  private final List<Integer> writers = new ArrayList<>(); // the heads before each writer
  private boolean full;

  /** A {@code head} of {@code limit} rows, the next in the chain. */
  Head head(long limit) {
    Head head = new Head(limit);
    heads.add(head);
    return head;
  }

  /**
   * A writing step comes next: the heads after it do not stop its input. The gate to put after it:
   * it passes pages on until no one after the writer wants them, and is never finished early.
   */
  PageTransformOperator writer() {
    int writer = writers.size();
    writers.add(heads.size());
    return new PageTransformOperator() {
      @Override
      protected Page process(Page page) {
        return wantsNoMoreAfter(writer) ? null : page;
      }
    };
  }

  /** The answer's end takes no more pages. */
  void full() {
    full = true;
  }

  /** Whether the answer is full or a head from the next one on (one after a stage) is. */
  BooleanSupplier fromNext() {
    int first = heads.size();
    return () -> full || anyHasItsRows(first, heads.size());
  }

  /** Whether nothing more is wanted from the source (see the class comment). */
  boolean wantsNoMore() {
    return wantsNoMoreAfter(-1);
  }

  /**
   * Whether nothing more is wanted after writer {@code writer} ({@code -1}: the source): a head up
   * to the next writer has its rows, or there is none and the answer is full.
   */
  private boolean wantsNoMoreAfter(int writer) {
    int from = writer < 0 ? 0 : writers.get(writer);
    boolean last = writer == writers.size() - 1;
    int to = last ? heads.size() : writers.get(writer + 1);
    return anyHasItsRows(from, to) || (last && full);
  }

  private boolean anyHasItsRows(int from, int to) {
    for (Head head : heads.subList(from, to)) {
      if (head.remaining == 0) {
        return true; // what comes before a head that has its rows is of no use any more
      }
    }
    return false;
  }

  /** {@code head N}: the first N positions, the page that crosses N cut. */
  static final class Head extends PageTransformOperator {
    private long remaining;

    private Head(long limit) {
      this.remaining = limit;
    }

    @Override
    protected Page process(Page page) {
      if (remaining == 0) {
        return null;
      }
      int count = (int) Math.min(remaining, page.positionCount());
      remaining -= count;
      return count == page.positionCount() ? page : PageReduce.firstPositions(page, count);
    }
  }
}
