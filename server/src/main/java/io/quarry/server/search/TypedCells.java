package io.quarry.server.search;

import io.quarry.plugin.api.data.Block;
import io.quarry.ql.exec.PageBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cells of one {@link EventColumn}'s page whose values are not all text (a JSON number or
 * boolean, where {@link EventReading#typed} asks), and the column typed from them as {@code
 * PageBuilder} types the same values: over the whole page, and again over the positions the
 * search's filter keeps ({@link #kept}). The second typing makes a column's type the type of the
 * events the result holds, not of the events the filter drops: over blocks every event of a block
 * is on the page until the filter's comparisons ran, so a key=value {@code id=2} (a text) of
 * another sourcetype would make a page's JSON numbers text there, and numbers where the index query
 * leaves that event out (the event layout).
 */
final class TypedCells {
  private final String name;
  private Map<Integer, List<Object>> filling; // position → values, of the page being filled
  private Map<Integer, List<Object>> built; // the same, of the page last built
  private Block builtTexts; // the page last built as text, where a cell of it was typed

  TypedCells(String name) {
    this.name = name;
  }

  /** Keeps the values at {@code position} of the page being filled when one of them is not text. */
  void keep(int position, List<?> values) {
    for (int i = 0; i < values.size(); i++) {
      if (!(values.get(i) instanceof String)) {
        if (filling == null) {
          filling = new HashMap<>();
        }
        filling.put(position, List.copyOf(values));
        return;
      }
    }
  }

  /**
   * The page's column from its {@code texts}: as they are when no cell was typed, else again from
   * its cells, the typed ones as they were; the page is remembered for {@link #kept}.
   */
  Block build(Block texts) {
    built = filling;
    filling = null;
    builtTexts = built != null ? texts : null;
    return built == null ? texts : column(null, texts.positionCount());
  }

  /**
   * The column of the page last built over its positions {@code kept[0, count)} only, typed over
   * their cells; null when none of the page's cells was typed (its texts' copy is the column).
   */
  Block kept(int[] kept, int count) {
    return built == null ? null : column(kept, count);
  }

  private Block column(int[] kept, int count) {
    List<List<Object>> cells = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int position = kept == null ? i : kept[i];
      List<Object> cell = built.get(position);
      cells.add(cell != null ? cell : builtTexts.getValues(position));
    }
    return PageBuilder.column(name, cells);
  }
}
