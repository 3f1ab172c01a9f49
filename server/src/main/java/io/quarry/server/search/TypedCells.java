package io.quarry.server.search;

import io.quarry.plugin.api.data.Block;
import io.quarry.ql.exec.PageBuilder;
import io.quarry.ql.exec.Values;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The cells of one {@link EventColumn}'s page whose values are not all text (a JSON number or
 * boolean, where {@link EventReading#typed} asks), and the column typed from them as {@code
 * PageBuilder} types the same values, once, over the positions the search's filter keeps ({@link
 * #typed}). The page goes through the filter as text (a comparison decides a number's text as the
 * number: {@code SearchFilter}), so a column's type is the type of the events the result holds, not
 * of the events the filter drops: over blocks every event of a block is on the page until the
 * filter's comparisons ran, so a key=value {@code id=2} (a text) of another sourcetype would make a
 * page's JSON numbers text there, and numbers where the index query leaves that event out (the
 * event layout).
 */
final class TypedCells {
  private final String name;
  private final int pageSize;
  private List<?>[] filling; // by position, the typed cells of the page being filled; made at need
  private List<?>[] built; // the same, of the page last built (swapped with filling)
  private boolean fillingTyped; // whether filling holds a cell
  private boolean builtTyped;
  private Block builtTexts; // the page last built as text

  TypedCells(String name, int pageSize) {
    this.name = name;
    this.pageSize = pageSize;
  }

  /** Keeps the values at {@code position} of the page being filled when one of them is not text. */
  void keep(int position, List<?> values) {
    for (int i = 0; i < values.size(); i++) {
      if (!(values.get(i) instanceof String)) {
        if (filling == null) {
          filling = new List<?>[pageSize];
        }
        filling[position] = List.copyOf(values);
        fillingTyped = true;
        return;
      }
    }
  }

  /**
   * The page being filled is built: its column as {@code texts} (what the filter reads); its typed
   * cells are remembered for {@link #typed} and the next page starts with none.
   */
  void built(Block texts) {
    List<?>[] cells = built;
    boolean held = builtTyped;
    built = filling;
    builtTyped = fillingTyped;
    builtTexts = builtTyped ? texts : null;
    filling = cells;
    fillingTyped = false;
    if (held) {
      Arrays.fill(cells, null); // the page before the last one's cells
    }
  }

  /**
   * The column of the page last built over its positions {@code kept[0, count)} (all its {@code
   * count} positions when {@code kept} is null), typed over their cells; null when none of those
   * cells was typed (the texts' copy is the column, as typing texts alone gives text).
   */
  Block typed(int[] kept, int count) {
    if (!builtTyped || !anyTyped(kept, count)) {
      return null;
    }
    List<List<Object>> cells = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int position = kept == null ? i : kept[i];
      @SuppressWarnings("unchecked")
      List<Object> cell = (List<Object>) built[position];
      cells.add(cell != null ? cell : Values.valuesOf(builtTexts, position));
    }
    return PageBuilder.column(name, cells);
  }

  private boolean anyTyped(int[] kept, int count) {
    for (int i = 0; i < count; i++) {
      if (built[kept == null ? i : kept[i]] != null) {
        return true;
      }
    }
    return false;
  }
}
