package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Pages built straight from field values and read back from their blocks, for tests on the page
 * engine: no row is involved. Columns are typed as a search types them ({@link
 * PageBuilder#toPage(List, List, int)}, the page builder that outlives the row collector): longs
 * make a long column ({@code _time} a timestamp), longs and doubles a double column, anything else
 * text.
 */
public final class TestPages {
  private TestPages() {}

  /**
   * One page of rows given as field → values (a position's values: none is a null, several a
   * multivalue), a column per field any row has, in first-seen order.
   */
  public static Page page(List<Map<String, List<Object>>> rows) {
    Set<String> names = new LinkedHashSet<>();
    rows.forEach(row -> names.addAll(row.keySet()));
    return page(rows, List.copyOf(names));
  }

  /**
   * One page of rows given as field → values, a column per name of {@code names} in that order (all
   * null where no row has it): pages of one schema, as a source gives them.
   */
  public static Page page(List<Map<String, List<Object>>> rows, List<String> names) {
    List<List<List<Object>>> columns = new ArrayList<>();
    for (String name : names) {
      List<List<Object>> cells = new ArrayList<>(rows.size());
      for (Map<String, List<Object>> row : rows) {
        cells.add(row.getOrDefault(name, List.of()));
      }
      columns.add(cells);
    }
    return PageBuilder.toPage(names, columns, rows.size());
  }

  /** Every field name of the rows, in first-seen order. */
  public static List<String> names(List<Map<String, List<Object>>> rows) {
    Set<String> names = new LinkedHashSet<>();
    rows.forEach(row -> names.addAll(row.keySet()));
    return List.copyOf(names);
  }

  /**
   * {@code rows} cut into pages of {@code pageSize} rows (none for no rows), each its own schema.
   */
  public static List<Page> pages(List<Map<String, List<Object>>> rows, int pageSize) {
    List<Page> pages = new ArrayList<>();
    for (int from = 0; from < rows.size(); from += pageSize) {
      pages.add(page(rows.subList(from, Math.min(rows.size(), from + pageSize))));
    }
    return pages;
  }

  /** Rows given as field → value ({@code List}: a multivalue), as {@link #page} takes them. */
  public static List<Map<String, List<Object>>> cells(List<Map<String, Object>> rows) {
    List<Map<String, List<Object>>> cells = new ArrayList<>(rows.size());
    for (Map<String, Object> row : rows) {
      Map<String, List<Object>> values = new LinkedHashMap<>();
      row.forEach(
          (name, value) ->
              values.put(
                  name,
                  value == null
                      ? List.of()
                      : value instanceof List<?> list ? List.copyOf(list) : List.of(value)));
      cells.add(values);
    }
    return cells;
  }

  /**
   * Every position of the pages as its non-null fields in column order: a value, or a {@code List}
   * for a position with several values.
   */
  public static List<Map<String, Object>> rows(List<Page> pages) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Page page : pages) {
      Schema schema = page.schema();
      for (int p = 0; p < page.positionCount(); p++) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int c = 0; c < schema.size(); c++) {
          List<Object> values = page.block(c).getValues(p);
          if (!values.isEmpty()) {
            row.put(schema.column(c).name(), values.size() == 1 ? values.get(0) : values);
          }
        }
        rows.add(row);
      }
    }
    return rows;
  }

  /** One page of rows given as field → value ({@code List}: a multivalue; null: no value). */
  public static Page of(List<Map<String, Object>> rows) {
    return page(cells(rows));
  }
}
