package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The table {@code outputlookup} writes, built row by row: the columns in the order they are first
 * added, each row's cell of a column its values' text ({@link LookupTable#cellText}: a multivalue
 * joined with line breaks, {@code _time} in epoch seconds), a cell never set empty — or what the
 * writer's {@code missing} gives for it. The kept text is counted on the search's memory. Shared by
 * the page stage ({@link OutputLookupOperator}) and the event listing's table ({@code
 * search.EventTable}).
 */
public final class TableCells {
  private final MemoryTracker memory;
  private final List<String> header = new ArrayList<>();
  private final Map<String, Integer> columnOf = new HashMap<>();
  private final List<String[]> rows = new ArrayList<>();

  public TableCells(MemoryTracker memory) {
    this.memory = requireNonNull(memory, "memory is null");
  }

  /** The index of column {@code name}, added last when new. */
  public int column(String name) {
    Integer at = columnOf.get(name);
    if (at == null) {
      at = header.size();
      columnOf.put(name, at);
      header.add(name);
    }
    return at;
  }

  /** The index of column {@code name}, -1 when it was never added. */
  public int indexOf(String name) {
    return columnOf.getOrDefault(name, -1);
  }

  /** A new last row as wide as the columns so far, no cell set. */
  public String[] row() {
    String[] row = new String[header.size()];
    rows.add(row);
    memory.add(16L + 8L * row.length);
    return row;
  }

  /**
   * Sets {@code row}'s cell of column {@code column} (from {@link #column}) to the values' text.
   */
  public void set(String[] row, int column, List<Object> values) {
    String text = LookupTable.cellText(header.get(column), values);
    row[column] = text;
    memory.add(MemoryTracker.valueBytes(text));
  }

  /** What to write in a cell no row set: the row's number and the column's name give it. */
  @FunctionalInterface
  public interface Missing {
    String cell(int row, String column);
  }

  /** The table so far, a cell never set as {@code missing} gives it (null: empty). */
  public LookupTable table(Missing missing) {
    List<String> columns = List.copyOf(header);
    List<List<String>> cells = new ArrayList<>(rows.size());
    for (int r = 0; r < rows.size(); r++) {
      String[] full = Arrays.copyOf(rows.get(r), columns.size());
      for (int c = 0; c < full.length; c++) {
        if (full[c] == null) {
          String cell = missing.cell(r, columns.get(c));
          full[c] = cell == null ? "" : cell;
        }
      }
      cells.add(Arrays.asList(full));
    }
    return new LookupTable(columns, cells);
  }

  /** Drops the rows and releases their memory. */
  public void clear() {
    rows.clear();
    memory.release();
  }
}
