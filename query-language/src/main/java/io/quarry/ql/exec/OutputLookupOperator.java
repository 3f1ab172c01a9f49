package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.OutputLookupCommand;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code outputlookup} on pages, a stage of {@link PageReduce}: each page handed on as it came, its
 * cells kept as the table's text — a column's values at a position as a row's field is written (a
 * multivalue joined with line breaks, {@code _time} in epoch seconds, no value an empty cell) — and
 * the table written through the search's lookup writer once the input ends. The columns are in the
 * order fields are first seen row by row: a row's fields in its page's column order, so a page's
 * new columns by the first position holding a value, then by column. Exact whatever the pages'
 * layout (a column's null is a row without the field). The cells are a {@link TableCells}, whose
 * text is counted on the search's memory. A {@code head} after it does not stop its input: later
 * rows still go into the table ({@link PageReduce}).
 */
final class OutputLookupOperator extends PageTransformOperator {
  private final OutputLookupCommand command;
  private final LookupTable.Writer writer;
  private final TableCells table;

  OutputLookupOperator(
      OutputLookupCommand command, LookupTable.Writer writer, MemoryTracker memory) {
    this.command = requireNonNull(command, "command is null");
    this.writer = requireNonNull(writer, "writer is null");
    this.table = new TableCells(memory);
  }

  @Override
  protected Page process(Page page) {
    int columns = page.schema().size();
    int positions = page.positionCount();
    int[] firstHeld = new int[columns]; // each column's first position with a value; -1: none
    List<Integer> fresh = new ArrayList<>();
    for (int c = 0; c < columns; c++) {
      Block block = page.block(c);
      firstHeld[c] = -1;
      for (int p = 0; p < positions; p++) {
        if (!block.isNull(p)) {
          firstHeld[c] = p;
          break;
        }
      }
      if (firstHeld[c] >= 0 && table.indexOf(page.schema().column(c).name()) < 0) {
        fresh.add(c);
      }
    }
    fresh.sort((a, b) -> firstHeld[a] != firstHeld[b] ? firstHeld[a] - firstHeld[b] : a - b);
    for (int c : fresh) {
      table.column(page.schema().column(c).name());
    }
    int[] target = new int[columns];
    for (int c = 0; c < columns; c++) {
      target[c] = table.indexOf(page.schema().column(c).name());
    }
    for (int p = 0; p < positions; p++) {
      String[] row = table.row();
      for (int c = 0; c < columns; c++) {
        Block block = page.block(c);
        if (target[c] >= 0 && !block.isNull(p)) {
          table.set(row, target[c], Values.valuesOf(block, p));
        }
      }
    }
    return page;
  }

  @Override
  public void finish() {
    super.finish();
    writer.write(command.table(), table.table((row, column) -> null));
    close();
  }

  @Override
  public void close() {
    table.clear();
  }
}
