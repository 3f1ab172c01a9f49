package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.LookupCommand;
import io.quarry.ql.ast.LookupCommand.FieldMapping;
import java.util.ArrayList;
import java.util.HashMap;
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
  private final Map<List<String>, List<List<String>>> index = new HashMap<>();
  private final List<FieldMapping> outputs;
  private final int[] outputColumns;
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
    memory.add(table.estimatedBytes() + MemoryTracker.ENTRY_BYTES * table.rows().size());
    int[] keyColumns = new int[command.keys().size()];
    for (int i = 0; i < keyColumns.length; i++) {
      keyColumns[i] = column(table, command.keys().get(i).column());
    }
    List<FieldMapping> chosen = new ArrayList<>(command.outputs());
    if (chosen.isEmpty()) {
      for (String column : table.columns()) {
        if (command.keys().stream().noneMatch(k -> k.column().equals(column))) {
          chosen.add(new FieldMapping(column, column));
        }
      }
    }
    this.outputs = List.copyOf(chosen);
    this.outputColumns = new int[outputs.size()];
    for (int i = 0; i < outputColumns.length; i++) {
      outputColumns[i] = column(table, outputs.get(i).column());
    }
    for (List<String> row : table.rows()) {
      List<String> key = new ArrayList<>(keyColumns.length);
      for (int column : keyColumns) {
        key.add(row.get(column));
      }
      index.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
    }
  }

  private int column(LookupTable table, String name) {
    int index = table.columns().indexOf(name);
    if (index < 0) {
      throw new IllegalArgumentException(
          "lookup table '"
              + command.table()
              + "' has no column '"
              + name
              + "' (it has "
              + String.join(", ", table.columns())
              + ")");
    }
    return index;
  }

  @Override
  public boolean accept(Row row) {
    List<String> key = new ArrayList<>(command.keys().size());
    for (FieldMapping mapping : command.keys()) {
      List<Object> values = row.values(mapping.field());
      if (values.isEmpty()) {
        return downstream.accept(row);
      }
      key.add(
          TimeField.is(mapping.field())
              ? TimeField.secondsText(values.get(0))
              : Values.toText(values.get(0)));
    }
    List<List<String>> matches = index.get(key);
    if (matches == null) {
      return downstream.accept(row);
    }
    Map<String, Object> assigned = new LinkedHashMap<>();
    for (int i = 0; i < outputs.size(); i++) {
      String field = outputs.get(i).field();
      if (command.outputNew() && !row.values(field).isEmpty()) {
        continue;
      }
      List<Object> values = new ArrayList<>();
      for (List<String> match : matches) {
        String value = match.get(outputColumns[i]);
        if (!value.isEmpty() && !values.contains(value)) {
          values.add(value);
        }
      }
      assigned.put(field, values.isEmpty() ? null : values.size() == 1 ? values.get(0) : values);
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
