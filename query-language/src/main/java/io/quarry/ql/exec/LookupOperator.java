package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.LookupCommand;
import io.quarry.ql.ast.LookupCommand.FieldMapping;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code lookup}: indexes the table once by its key columns, then gives each row the output columns
 * of the table rows whose keys equal the row's fields (exact, case-sensitive text match; a row
 * missing a key field is passed on as it is; {@code _time} as a key is its epoch seconds). Several
 * matching table rows make multivalue fields. The table and its index count against the search's
 * memory limit while the operator lives.
 */
public final class LookupOperator implements RowSink {
  private final LookupCommand command;
  private final RowSink downstream;
  private final LookupIndex index;
  private final MemoryTracker memory;

  public LookupOperator(LookupCommand command, LookupTable table, RowSink downstream) {
    this(command, table, downstream, MemoryTracker.unbounded("lookup"));
  }

  /**
   * As above, the table and its index counted by {@code memory} (the search's limit applies).
   *
   * @throws io.quarry.plugin.api.data.MemoryLimitExceededException when the table is more than the
   *     search may hold
   */
  public LookupOperator(
      LookupCommand command, LookupTable table, RowSink downstream, MemoryTracker memory) {
    this.command = requireNonNull(command, "command is null");
    this.downstream = requireNonNull(downstream, "downstream is null");
    this.memory = requireNonNull(memory, "memory is null");
    // the table (shared with the lookup cache, but held for this search) and one index entry a row
    memory.add(LookupStage.heldBytes(table));
    this.index = new LookupIndex(command, table);
  }

  @Override
  public boolean accept(Row row) {
    List<String> key = new ArrayList<>(command.keys().size());
    for (FieldMapping mapping : command.keys()) {
      List<Object> values = row.values(mapping.field());
      if (values.isEmpty()) {
        return downstream.accept(row);
      }
      key.add(LookupIndex.keyText(mapping.field(), values.get(0)));
    }
    List<List<String>> matches = index.matches(key);
    if (matches == null) {
      return downstream.accept(row);
    }
    Map<String, Object> assigned = new LinkedHashMap<>();
    List<FieldMapping> outputs = index.outputs();
    for (int i = 0; i < outputs.size(); i++) {
      String field = outputs.get(i).field();
      if (command.outputNew() && !row.values(field).isEmpty()) {
        continue;
      }
      assigned.put(field, index.output(matches, i));
    }
    return downstream.accept(new AssignedRow(row, assigned));
  }

  @Override
  public void finish() {
    index.clear();
    memory.release();
    downstream.finish();
  }
}
