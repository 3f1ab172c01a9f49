package io.quarry.ql.eval;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.engine.BlockCopies;

/**
 * What an {@link ExpressionEvaluator} reads: a page, and the columns an {@code eval} command
 * assigned before the expression (by slot, as {@link ExpressionCompiler#compile(
 * io.quarry.ql.ast.Expression, java.util.List)} numbered them; a later assignment sees an earlier
 * one's values exactly, not as a block would type them).
 */
public final class Frame {
  private final Page page;
  private final ValueColumn[] assigned;

  /** A page alone. */
  public Frame(Page page) {
    this(page, new ValueColumn[0]);
  }

  /** A page with the columns assigned so far (the array is read, not copied). */
  public Frame(Page page, ValueColumn[] assigned) {
    this.page = requireNonNull(page, "page is null");
    this.assigned = requireNonNull(assigned, "assigned is null");
  }

  public Page page() {
    return page;
  }

  /** The number of positions. */
  public int size() {
    return page.positionCount();
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
  Frame narrow(java.util.Set<String> fields) {
    if (fields.contains("*")) {
      return this; // a searchmatch term asks the fields of a row without _raw: every column
    }
    java.util.List<io.quarry.plugin.api.data.Schema.Column> columns = new java.util.ArrayList<>();
    java.util.List<io.quarry.plugin.api.data.Block> blocks = new java.util.ArrayList<>();
    for (int c = 0; c < page.schema().size(); c++) {
      if (fields.contains(page.schema().column(c).name())) {
        columns.add(page.schema().column(c));
        blocks.add(page.block(c));
      }
    }
    return new Frame(
        new Page(new io.quarry.plugin.api.data.Schema(columns), blocks, page.positionCount()),
        assigned);
  }

  /**
   * The positions {@code positions[0 .. count)} of this frame (a position may repeat), the page's
   * blocks and the assigned columns copied: what a lazily evaluated part ({@link Lazily}) or a
   * per-value expression ({@code mvmap}) is evaluated over.
   */
  Frame select(int[] positions, int count) {
    ValueColumn[] taken = new ValueColumn[assigned.length];
    for (int slot = 0; slot < taken.length; slot++) {
      taken[slot] =
          assigned[slot] == null ? null : ArrayColumn.take(assigned[slot], positions, count);
    }
    return new Frame(BlockCopies.filter(page, positions, count), taken);
  }
}
