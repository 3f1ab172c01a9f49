package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The fields bare {@code fillnull} or {@code filldown} wrote over events ({@link
 * OverlayCommands#holdsOutput}), and its output pages held until its input is over. A field is
 * written when the command changed its value (compared by text: a column may change its type) on
 * some row of its whole output, or gave a row a field its input page lacked; which those are is
 * known only once every row went through, so {@link PluginOverlayOperator} lays the written fields
 * over every row of the answer — the rule of the commands with a field list, whose written fields
 * are those they name — and no other, whatever rows shared a batch (issue 21).
 */
final class WrittenFields {
  /** Where an output position's event came from. */
  interface Origins {
    /** The operator's input page of the batch holding row {@code id}. */
    Page input(long id);

    /** Row {@code id}'s position on that page. */
    int position(long id);
  }

  private final Set<String> fields = new HashSet<>();
  private final ArrayDeque<Page> held = new ArrayDeque<>();

  /**
   * Notes what {@code output} (its row ids in column {@code rowColumn}; none, -1, for rows of the
   * command's own making) wrote, and holds it.
   */
  void hold(Page output, int rowColumn, Origins origins) {
    held.addLast(output);
    if (rowColumn < 0 || !(output.block(rowColumn) instanceof LongBlock ids)) {
      return; // its own rows; or a changed row column, which laying it over refuses
    }
    for (int c = 0; c < output.schema().size(); c++) {
      String name = output.schema().column(c).name();
      if (c == rowColumn || fields.contains(name)) {
        continue;
      }
      Block written = output.block(c);
      for (int p = 0; p < output.positionCount(); p++) {
        Page in = origins.input(ids.getLong(p));
        Block before = in.block(name);
        if (before == written) {
          break; // handed back as it came: no row of it changed
        }
        if (before == null || !sameValues(before, origins.position(ids.getLong(p)), written, p)) {
          fields.add(name);
          break;
        }
      }
    }
  }

  /** Whether the command wrote {@code field} on some row so far. */
  boolean wrote(String field) {
    return fields.contains(field);
  }

  /** The next output page held, or null. */
  Page next() {
    return held.pollFirst();
  }

  boolean holdsNone() {
    return held.isEmpty();
  }

  /** The pages held, to release. */
  List<Page> drain() {
    List<Page> pages = List.copyOf(held);
    held.clear();
    return pages;
  }

  /** Whether two positions hold the same values, by their text (a column may change its type). */
  static boolean sameValues(Block a, int at, Block b, int bt) {
    List<Object> left = Values.valuesOf(a, at);
    List<Object> right = Values.valuesOf(b, bt);
    if (left.size() != right.size()) {
      return false;
    }
    for (int v = 0; v < left.size(); v++) {
      if (!String.valueOf(left.get(v)).equals(String.valueOf(right.get(v)))) {
        return false;
      }
    }
    return true;
  }
}
