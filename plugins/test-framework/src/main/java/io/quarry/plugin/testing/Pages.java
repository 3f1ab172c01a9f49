package io.quarry.plugin.testing;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.exec.PageBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** Pages from rows and rows from pages, typed as a search types them. */
public final class Pages {
  private Pages() {}

  /**
   * One page of rows: a column per field (longs make a long column, longs and doubles a double
   * column, anything else text; {@code _time} in epoch microseconds is a timestamp column); a
   * {@code List} value is a multivalue, a position with several values.
   */
  public static Page of(List<Map<String, Object>> rows) {
    Set<String> names = new LinkedHashSet<>();
    rows.forEach(row -> names.addAll(row.keySet())); // a field given as null too: a null column
    List<List<List<Object>>> columns = new ArrayList<>(names.size());
    for (String name : names) {
      List<List<Object>> cells = new ArrayList<>(rows.size());
      for (Map<String, Object> row : rows) {
        Object value = row.get(name);
        cells.add(
            value instanceof List<?> values
                ? List.<Object>copyOf(values)
                : value == null ? List.of() : List.of(value));
      }
      columns.add(cells);
    }
    return PageBuilder.toPage(List.copyOf(names), columns, rows.size());
  }

  /**
   * A row per position: field → value (Long, Double, Boolean, String, or a {@code List} of them for
   * a position with several values), nulls left out.
   */
  public static List<Map<String, Object>> rows(Page page) {
    List<Map<String, Object>> rows = new ArrayList<>();
    Schema schema = page.schema();
    for (int p = 0; p < page.positionCount(); p++) {
      Map<String, Object> row = new LinkedHashMap<>();
      for (int c = 0; c < schema.size(); c++) {
        List<Object> values = page.block(c).getValues(p);
        Object value =
            switch (values.size()) {
              case 0 -> null;
              case 1 -> values.get(0);
              default -> values;
            };
        if (value != null) {
          row.put(schema.column(c).name(), value);
        }
      }
      rows.add(row);
    }
    return rows;
  }

  /** The same rows cut into pages of random sizes (1 to {@code max} rows). */
  static List<Page> reslice(List<Map<String, Object>> rows, java.util.Random random, int max) {
    List<Page> pages = new ArrayList<>();
    int start = 0;
    while (start < rows.size()) {
      int size = Math.min(rows.size() - start, 1 + random.nextInt(max));
      pages.add(of(rows.subList(start, start + size)));
      start += size;
    }
    return pages;
  }

  /**
   * The page with every string column in the dictionary form of SPI 1.5 (a constant when every
   * position holds the one same value): the same values, which an operator must read the same.
   */
  static Page dictionaryEncoded(Page page) {
    List<io.quarry.plugin.api.data.Block> blocks = new ArrayList<>(page.blocks().size());
    for (io.quarry.plugin.api.data.Block block : page.blocks()) {
      blocks.add(block instanceof BytesBlock bytes ? dictionaryEncoded(bytes) : block);
    }
    return new Page(page.schema(), blocks, page.positionCount());
  }

  private static BytesBlock dictionaryEncoded(BytesBlock block) {
    int positions = block.positionCount();
    if (positions > 0 && !block.mayHaveMultivaluedFields()) {
      String first = block.isNull(0) ? null : block.getString(0);
      boolean constant = first != null;
      for (int p = 1; constant && p < positions; p++) {
        constant = !block.isNull(p) && block.getString(p).equals(first);
      }
      if (constant) {
        return BytesBlock.constant(first, positions);
      }
    }
    Map<String, Integer> entries = new LinkedHashMap<>();
    for (int v = 0; v < positions; v++) {
      for (Object value : block.getValues(v)) {
        entries.putIfAbsent((String) value, entries.size());
      }
    }
    BytesBlock.Builder dictionary = BytesBlock.builder(entries.size());
    entries.keySet().forEach(dictionary::append);
    BytesBlock.OrdinalBuilder builder = BytesBlock.ordinalBuilder(dictionary.build(), positions);
    for (int p = 0; p < positions; p++) {
      List<Object> values = block.getValues(p);
      if (values.isEmpty()) {
        builder.appendNull();
      } else if (values.size() == 1) {
        builder.appendOrdinal(entries.get((String) values.get(0)));
      } else {
        builder.beginPositionEntry();
        values.forEach(value -> builder.appendOrdinal(entries.get((String) value)));
        builder.endPositionEntry();
      }
    }
    return builder.build();
  }

  static Map<String, Object> withoutNulls(Map<String, Object> row) {
    Map<String, Object> copy = new LinkedHashMap<>(row);
    copy.values().removeIf(Objects::isNull);
    return copy;
  }
}
