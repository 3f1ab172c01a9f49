package io.quarry.ql.builtins;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Fields a command found in each result's text ({@code extract}, {@code xmlkv}) set on a page: a
 * field found in a result takes the values found (replacing the result's own, or, when the command
 * keeps them, only where the result has none: Splunk's {@code MV_ADD=false}), a result where it was
 * not found keeps what it had; an internal field (a name starting with {@code _}) is never set, as
 * Splunk's extractions never set one. The columns are texts, as search-time fields are.
 */
final class FoundFields {
  private FoundFields() {}

  /**
   * {@code page} with {@code found.get(p)}'s fields set at position {@code p}; with {@code
   * keepExisting} a value the result already has stays.
   */
  static Page set(
      BlockFactory factory,
      Page page,
      List<Map<String, List<String>>> found,
      boolean keepExisting) {
    Set<String> names = new LinkedHashSet<>();
    for (Map<String, List<String>> fields : found) {
      names.addAll(fields.keySet());
    }
    names.removeIf(name -> name.startsWith("_")); // internal fields (Cells.ROW among them)
    if (names.isEmpty()) {
      return page;
    }
    List<String> order = new ArrayList<>(names);
    List<Cells.Column> columns = new ArrayList<>(order.size());
    for (String name : order) {
      Block had = page.block(name);
      Cells.Column column = new Cells.Column();
      for (int p = 0; p < page.positionCount(); p++) {
        List<String> values = found.get(p).get(name);
        boolean has = had != null && !had.isNull(p);
        if (values != null && !(keepExisting && has)) {
          column.add(values);
        } else {
          column.add(had == null ? List.of() : Cells.values(had, p));
        }
      }
      columns.add(column);
    }
    return Cells.withColumns(factory, page, order, columns);
  }

  /** The text of a position's first value of {@code block}, or null. */
  static String text(Block block, int position) {
    if (block == null || block.isNull(position)) {
      return null;
    }
    return Cells.text(Cells.values(block, position).get(0));
  }
}
