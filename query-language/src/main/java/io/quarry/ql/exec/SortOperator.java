package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.SortKey;
import java.util.Comparator;
import java.util.List;

/**
 * {@code sort}: orders rows by their keys and passes on the first {@code limit}. Keys are read once
 * per row; a bounded heap keeps only {@code limit} rows, so {@code sort -bytes} over millions of
 * events holds 10,000 of them. Ties keep arrival order; a row missing a key (or, under {@code
 * num()}, whose value is not a number) sorts after the rows that have it, in either direction;
 * otherwise a descending key reverses the whole order, text before numbers.
 */
public final class SortOperator implements RowSink {
  private final List<SortKey> keys;
  private final long limit;
  private final RowSink downstream;
  private final TopN<Entry> kept;
  private final MemoryTracker memory;
  private long arrived;

  private record Entry(Object[] keys, long sequence, Row row) {}

  public SortOperator(List<SortKey> keys, long limit, RowSink downstream) {
    this(keys, limit, downstream, MemoryTracker.unbounded("sort"));
  }

  /** As above, the rows it keeps counted by {@code memory} (the search's limit applies). */
  public SortOperator(List<SortKey> keys, long limit, RowSink downstream, MemoryTracker memory) {
    this.memory = requireNonNull(memory, "memory is null");
    this.keys = List.copyOf(keys);
    this.limit = limit;
    this.downstream = requireNonNull(downstream, "downstream is null");
    this.kept = new TopN<>(limit, entryOrder(this.keys));
  }

  @Override
  public boolean accept(Row row) {
    if (limit == 0) {
      return true;
    }
    Object[] values = new Object[keys.size()];
    for (int i = 0; i < values.length; i++) {
      List<Object> fieldValues = row.values(keys.get(i).field());
      values[i] = fieldValues.isEmpty() ? null : fieldValues.get(0);
    }
    if (kept.offer(new Entry(values, arrived++, row))) {
      memory.add(MemoryTracker.ROW_BYTES + 16L * values.length);
    }
    return true;
  }

  @Override
  public void finish() {
    List<Entry> sorted = kept.drain();
    for (Entry entry : sorted) {
      if (!downstream.accept(entry.row())) {
        break;
      }
    }
    sorted.clear();
    memory.release();
    downstream.finish();
  }

  private static Comparator<Entry> entryOrder(List<SortKey> keys) {
    return Comparator.comparing(Entry::keys, SortOrder.keyOrder(keys))
        .thenComparingLong(Entry::sequence);
  }
}
