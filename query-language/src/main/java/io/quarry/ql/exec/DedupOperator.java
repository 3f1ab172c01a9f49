package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.DedupCommand;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code dedup}: keeps the first {@code count} rows of each combination of the fields' values (a
 * multivalue field compares as its whole list). Rows missing a field are dropped, or all kept with
 * {@code keepempty=true}. With {@code consecutive=true} only runs of equal adjacent rows shrink.
 * {@code sortby} is applied by a {@link SortOperator} after this one (see {@link Pipelines}).
 */
public final class DedupOperator implements RowSink {
  private final DedupCommand command;
  private final RowSink downstream;
  private final Map<List<List<Object>>, long[]> seen = new HashMap<>();
  private List<List<Object>> previous;
  private final MemoryTracker memory;
  private long run;

  public DedupOperator(DedupCommand command, RowSink downstream) {
    this(command, downstream, MemoryTracker.unbounded("dedup"));
  }

  /** As above, the value combinations it remembers counted by {@code memory}. */
  public DedupOperator(DedupCommand command, RowSink downstream, MemoryTracker memory) {
    this.memory = requireNonNull(memory, "memory is null");
    this.command = requireNonNull(command, "command is null");
    this.downstream = requireNonNull(downstream, "downstream is null");
  }

  @Override
  public boolean accept(Row row) {
    List<List<Object>> key = new ArrayList<>(command.fields().size());
    for (String field : command.fields()) {
      List<Object> values = row.values(field);
      if (values.isEmpty()) {
        return !command.keepEmpty() || downstream.accept(row);
      }
      key.add(values.stream().map(v -> (Object) Values.toText(v)).toList());
    }
    if (command.consecutive()) {
      run = key.equals(previous) ? run + 1 : 1;
      previous = key;
      return run > command.count() || downstream.accept(row);
    }
    long[] count = seen.get(key);
    if (count == null) {
      count = new long[1];
      seen.put(key, count);
      long bytes = MemoryTracker.ENTRY_BYTES;
      for (List<Object> values : key) {
        for (Object value : values) {
          bytes += MemoryTracker.valueBytes(value);
        }
      }
      memory.add(bytes);
    }
    return ++count[0] > command.count() || downstream.accept(row);
  }

  @Override
  public void finish() {
    seen.clear();
    memory.release();
    downstream.finish();
  }
}
