package io.quarry.ql.exec;

import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Page;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Whether a reduce chain ({@link PageReduce}) wants more input: its {@code head}s, the first {@code
 * outputlookup} among them (which takes every row but for a head before it) and whether the
 * answer's end took its last page. A chain's source is finished once nothing more is wanted.
 */
final class ReduceHeads {
  private final List<Head> heads = new ArrayList<>();
  private int writersAfter = -1; // the heads before the first outputlookup; -1: none
  private boolean full;

  /** A {@code head} of {@code limit} rows, the next in the chain. */
  Head head(long limit) {
    Head head = new Head(limit);
    heads.add(head);
    return head;
  }

  /** An {@code outputlookup} comes next: the heads after it do not stop its input. */
  void writer() {
    if (writersAfter < 0) {
      writersAfter = heads.size();
    }
  }

  /** The answer's end takes no more pages. */
  void full() {
    full = true;
  }

  /** Whether the answer is full or a head from the next one on (one after a stage) is. */
  BooleanSupplier fromNext() {
    int first = heads.size();
    return () ->
        full || heads.subList(first, heads.size()).stream().anyMatch(h -> h.remaining == 0);
  }

  /** Whether nothing more is wanted: the answer is full, or a head has its rows. */
  boolean wantsNoMore() {
    if (writersAfter >= 0) { // outputlookup takes every row but for a head before it
      return heads.subList(0, writersAfter).stream().anyMatch(h -> h.remaining == 0);
    }
    if (full) {
      return true;
    }
    for (Head head : heads) {
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
