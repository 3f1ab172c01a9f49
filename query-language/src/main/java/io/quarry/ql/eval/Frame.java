package io.quarry.ql.eval;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.engine.BlockCopies;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What an {@link ExpressionEvaluator} reads: a page — all its positions, or some of them (a part
 * evaluated only where it is taken: {@link #select}) — and the columns an {@code eval} command
 * assigned before the expression (by slot, as {@link ExpressionCompiler#compile(
 * io.quarry.ql.ast.Expression, java.util.List)} numbered them; a later assignment sees an earlier
 * one's values exactly, not as a block would type them). A field of a selection is read in place
 * ({@link SelectedColumn}): no block is copied unless a part asks for the whole {@link #page()}.
 */
public final class Frame {
  private final Page page;
  private final ValueColumn[] assigned;
  private final int[] positions; // the page positions this frame is; null: all of them
  private final int count;
  private Page selected; // the page at the positions, copied when first asked

  /** A page alone. */
  public Frame(Page page) {
    this(page, new ValueColumn[0]);
  }

  /** A page with the columns assigned so far (the array is read, not copied). */
  public Frame(Page page, ValueColumn[] assigned) {
    this(page, assigned, null, page.positionCount());
  }

  private Frame(Page page, ValueColumn[] assigned, int[] positions, int count) {
    this.page = requireNonNull(page, "page is null");
    this.assigned = requireNonNull(assigned, "assigned is null");
    this.positions = positions;
    this.count = count;
  }

  /** The page of this frame's positions (for a selection, a copy made once). */
  public Page page() {
    if (positions == null) {
      return page;
    }
    if (selected == null) {
      selected = BlockCopies.filter(page, positions, count);
    }
    return selected;
  }

  /** The page field {@code name} at this frame's positions (a constant null when absent). */
  ValueColumn field(String name) {
    Block block = page.block(name);
    if (block == null) {
      return new ConstantColumn(null, count);
    }
    BlockColumn column = new BlockColumn(name, block);
    return positions == null ? column : new SelectedColumn(column, positions, count);
  }

  /** The number of positions. */
  public int size() {
    return count;
  }

  /** The column assigned in {@code slot}. */
  public ValueColumn assigned(int slot) {
    return assigned[slot];
  }

  /** The number of assigned slots. */
  int slots() {
    return assigned.length;
  }

  /** This frame with only the page columns named in {@code fields} (nothing copied). */
  Frame narrow(Set<String> fields) {
    if (fields.contains("*")) {
      return this; // a searchmatch term asks the fields of a row without _raw: every column
    }
    List<Schema.Column> columns = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    for (int c = 0; c < page.schema().size(); c++) {
      if (fields.contains(page.schema().column(c).name())) {
        columns.add(page.schema().column(c));
        blocks.add(page.block(c));
      }
    }
    return new Frame(
        new Page(new Schema(columns), blocks, page.positionCount()), assigned, positions, count);
  }

  /** This frame's positions with {@code slots} as the assigned columns (of as many positions). */
  Frame withAssigned(ValueColumn[] slots) {
    return new Frame(page, slots, positions, count);
  }

  /**
   * The positions {@code chosen[0 .. n)} of this frame (a position may repeat; the array is kept,
   * not copied): what a lazily evaluated part ({@link Lazily}) or a per-value expression ({@code
   * mvmap}) is evaluated over. The page's fields are read in place, the assigned columns copied.
   */
  Frame select(int[] chosen, int n) {
    ValueColumn[] taken = new ValueColumn[assigned.length];
    for (int slot = 0; slot < taken.length; slot++) {
      taken[slot] = assigned[slot] == null ? null : ArrayColumn.take(assigned[slot], chosen, n);
    }
    int[] at = chosen;
    if (positions != null) {
      at = new int[n];
      for (int i = 0; i < n; i++) {
        at[i] = positions[chosen[i]];
      }
    }
    return new Frame(page, taken, at, n);
  }
}
