package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.FieldSummaryCommand;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code fieldsummary} on pages, a stage of {@link PageReduce} where the pages hold every field of
 * their rows: each column's values, position by position, into {@link FieldSummaries} (the state
 * and result rows); a null is a row without the field. The fields come out in the order they are
 * first met row by row — a row's fields in its page's column order — so a page's new columns are
 * placed first by the first position holding a value, then by column, before the page is read
 * column by column. Once the input ends, one row per field as pages typed over the whole answer
 * ({@link ResultPages}).
 */
final class FieldSummaryOperator extends QueuedPageOperator {
  private final FieldSummaries fields;
  private final int pageSize;

  FieldSummaryOperator(FieldSummaryCommand command, MemoryTracker memory, int pageSize) {
    this.fields = new FieldSummaries(command.maxValues(), memory);
    this.pageSize = pageSize;
  }

  @Override
  protected void process(Page page) {
    int columns = page.schema().size();
    int positions = page.positionCount();
    int[] firstHeld = new int[columns]; // each column's first position with a value; -1: none
    List<Integer> held = new ArrayList<>(columns);
    for (int c = 0; c < columns; c++) {
      Block block = page.block(c);
      firstHeld[c] = -1;
      for (int p = 0; p < positions; p++) {
        if (!block.isNull(p)) {
          firstHeld[c] = p;
          held.add(c);
          break;
        }
      }
    }
    held.sort((a, b) -> firstHeld[a] != firstHeld[b] ? firstHeld[a] - firstHeld[b] : a - b);
    for (int c : held) {
      fields.register(page.schema().column(c).name());
    }
    for (int c : held) {
      String name = page.schema().column(c).name();
      Block block = page.block(c);
      for (int p = firstHeld[c]; p < positions; p++) {
        if (!block.isNull(p)) {
          fields.add(name, Values.valuesOf(block, p));
        }
      }
    }
  }

  @Override
  protected void onFinish() {
    ResultPages.emit(fields.results(), pageSize, this::emit);
  }

  @Override
  public void close() {
    fields.clear();
  }
}
