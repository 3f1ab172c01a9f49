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
 * field found in a result takes the values found as its {@link Existing} rule says of the result's
 * own values, a result where it was not found keeps what it had; an internal field (a name starting
 * with {@code _}) is never set, as Splunk's extractions never set one. The columns are texts, as
 * search-time fields are.
 */
final class FoundFields {
  private FoundFields() {}

  /** What becomes of a field the result already has when the same name is found. */
  enum Existing {
    /**
     * The result's own values stay; only a missing field is filled (Splunk's {@code MV_ADD=false}).
     */
    KEEP,
    /**
     * The found values are appended to the result's own: a multivalue (Splunk's {@code
     * MV_ADD=true}) — unless the result's own values are exactly the values found, in order: those
     * are what search time's automatic extraction already took from the same text, found again, not
     * new values (an event's {@code status=500} stays {@code 500}, never {@code 500, 500}).
     */
    ADD,
    /** The found values replace the result's own. */
    REPLACE
  }

  /**
   * {@code page} with {@code found.get(p)}'s fields set at position {@code p} by {@code existing}.
   */
  static Page set(
      BlockFactory factory, Page page, List<Map<String, List<String>>> found, Existing existing) {
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
        List<Object> own = had == null || had.isNull(p) ? List.of() : Cells.values(had, p);
        if (values == null || existing == Existing.KEEP && !own.isEmpty()) {
          column.add(own);
        } else if (existing == Existing.ADD && !own.isEmpty() && !sameTexts(own, values)) {
          List<Object> both = new ArrayList<>(own);
          both.addAll(values);
          column.add(both);
        } else {
          column.add(values);
        }
      }
      columns.add(column);
    }
    return Cells.withColumns(factory, page, order, columns);
  }

  /** Whether {@code own}'s values, as texts, are {@code found}, in order. */
  private static boolean sameTexts(List<Object> own, List<String> found) {
    if (own.size() != found.size()) {
      return false;
    }
    for (int i = 0; i < own.size(); i++) {
      if (!found.get(i).equals(Cells.text(own.get(i)))) {
        return false;
      }
    }
    return true;
  }

  /** The text of a position's first value of {@code block}, or null. */
  static String text(Block block, int position) {
    if (block == null || block.isNull(position)) {
      return null;
    }
    return Cells.text(Cells.values(block, position).get(0));
  }
}
