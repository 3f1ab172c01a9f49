package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Page;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * {@code | inputlookup t}'s results made straight as typed pages, for the page engine: a lookup
 * table's rows in order, at most {@code pageSize} per page. A page has a column for each field some
 * row of it has a non-empty cell of, in first-seen order, and an empty cell is a null — the columns
 * and types {@link PageBuilder} gives the row generator's rows (one field per non-empty cell).
 * Pages are made one at a time as they are asked for.
 */
public final class LookupPages implements java.util.Iterator<Page> {
  private final LookupTable table;
  private final int pageSize;
  private int next;

  /** The pages of {@code table} (none when it is null: deleted since the search was planned). */
  public LookupPages(LookupTable table, int pageSize) {
    if (pageSize <= 0) {
      throw new IllegalArgumentException("pageSize must be positive: " + pageSize);
    }
    this.table = table;
    this.pageSize = pageSize;
  }

  @Override
  public boolean hasNext() {
    return table != null && next < table.rows().size();
  }

  @Override
  public Page next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    List<List<String>> rows =
        table.rows().subList(next, Math.min(next + pageSize, table.rows().size()));
    next += rows.size();
    Set<Integer> present = new LinkedHashSet<>(); // column indexes, first seen first
    for (List<String> cells : rows) {
      for (int c = 0; c < cells.size(); c++) {
        if (!cells.get(c).isEmpty()) {
          present.add(c);
        }
      }
    }
    List<String> names = new ArrayList<>(present.size());
    List<List<List<Object>>> columns = new ArrayList<>(present.size());
    for (int c : present) {
      names.add(table.columns().get(c));
      List<List<Object>> column = new ArrayList<>(rows.size());
      for (List<String> cells : rows) {
        String cell = c < cells.size() ? cells.get(c) : "";
        column.add(cell.isEmpty() ? List.of() : List.of(cell));
      }
      columns.add(column);
    }
    return PageBuilder.toPage(names, columns, rows.size());
  }
}
