package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;

/**
 * {@code tail N} (the last N rows, last first; only N are held) and {@code reverse} (every row,
 * last first).
 */
public final class ReorderOperator implements RowSink {
  private final long limit;
  private final RowSink downstream;
  private final ArrayDeque<Row> held = new ArrayDeque<>();
  private final MemoryTracker memory;

  /**
   * @param limit the rows to keep, or {@link Long#MAX_VALUE} for {@code reverse}
   */
  public ReorderOperator(long limit, RowSink downstream) {
    this(limit, downstream, MemoryTracker.unbounded("reverse"));
  }

  /** As above, the rows it holds counted by {@code memory}. */
  public ReorderOperator(long limit, RowSink downstream, MemoryTracker memory) {
    this.memory = requireNonNull(memory, "memory is null");
    this.limit = limit;
    this.downstream = requireNonNull(downstream, "downstream is null");
  }

  @Override
  public boolean accept(Row row) {
    if (limit == 0) {
      return true;
    }
    if (held.size() == limit) {
      held.removeFirst();
    } else {
      memory.add(MemoryTracker.ROW_BYTES);
    }
    held.addLast(row);
    return true;
  }

  @Override
  public void finish() {
    while (!held.isEmpty()) {
      if (!downstream.accept(held.removeLast())) {
        break;
      }
    }
    held.clear();
    memory.release();
    downstream.finish();
  }
}
