package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.SortCommand;
import io.quarry.ql.ast.SortKey;
import java.util.Comparator;
import java.util.List;

/**
 * {@code sort} on pages: the first {@code limit} positions by the keys, in {@code sort}'s order
 * (ties in arrival order, a missing key last in either direction, numbers before text), without
 * making a row of any position. A bounded heap holds (page, position) entries and each entry's key
 * values, read once per position from the key columns; the pages stay referenced while an entry of
 * theirs is kept. At the end the kept positions are copied out in order, {@code pageSize} at a
 * time, each output page having the columns its positions hold values in (in first-seen order) and
 * each column typed over its values ({@link PageBuilder}'s rules); where every row lists every
 * column ({@code listed}: {@link RowPaging}), every column of the input, in its order.
 */
final class PageSort extends QueuedPageOperator {
  private record Entry(Object[] keys, long sequence, Page page, int position) {}

  private final List<SortKey> keys;
  private final long limit;
  private final int pageSize;
  private final MemoryTracker memory;
  private final boolean listed;
  private final TopN<Entry> kept;
  private long arrived;
  private List<Entry> sorted; // once the input is over
  private int from; // the next sorted position to copy out

  PageSort(SortCommand command, int pageSize, MemoryTracker memory) {
    this(command, pageSize, memory, false);
  }

  /** As above; {@code listed}: every row lists every column of its page ({@link RowPaging}). */
  PageSort(SortCommand command, int pageSize, MemoryTracker memory, boolean listed) {
    this.listed = listed;
    this.keys = command.keys();
    this.limit = command.limit() == 0 ? Long.MAX_VALUE : command.limit();
    this.pageSize = pageSize;
    this.memory = requireNonNull(memory, "memory is null");
    this.kept = new TopN<>(limit, entryOrder(keys));
  }

  @Override
  protected void process(Page page) {
    Block[] columns = new Block[keys.size()];
    for (int k = 0; k < columns.length; k++) {
      int column = page.schema().indexOf(keys.get(k).field());
      columns[k] = column < 0 ? null : page.block(column);
    }
    for (int p = 0; p < page.positionCount(); p++) {
      Object[] values = new Object[columns.length];
      for (int k = 0; k < columns.length; k++) {
        values[k] = columns[k] == null ? null : Values.valueOf(columns[k], p);
      }
      if (kept.offer(new Entry(values, arrived++, page, p))) {
        memory.add(MemoryTracker.ROW_BYTES + 16L * values.length);
      }
    }
  }

  @Override
  protected void onFinish() {
    sorted = kept.drain(); // still counted: the pages they point into are held until produced
  }

  /** The next {@code pageSize} sorted positions as a page. */
  @Override
  protected Page produce() {
    if (from >= sorted.size()) {
      sorted = List.of();
      memory.release(); // every sorted row handed on
      return null;
    }
    int to = Math.min(sorted.size(), from + pageSize);
    Page page = page(sorted.subList(from, to));
    from = to;
    return page;
  }

  @Override
  public void close() {
    kept.clear();
    memory.release();
  }

  /**
   * The entries' positions as one page, laid out by their rows' fields ({@link RowPaging#page}).
   */
  private Page page(List<Entry> entries) {
    return RowPaging.page(
        entries.stream().map(Entry::page).toList(),
        entries.stream().map(Entry::position).toList(),
        listed);
  }

  private static Comparator<Entry> entryOrder(List<SortKey> keys) {
    return Comparator.comparing(Entry::keys, SortOrder.keyOrder(keys))
        .thenComparingLong(Entry::sequence);
  }
}
