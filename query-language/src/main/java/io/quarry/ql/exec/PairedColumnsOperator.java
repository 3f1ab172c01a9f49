package io.quarry.ql.exec;

import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.SubsearchResult;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code appendcols [ … ]} on whole pages: the n-th input position is paired with the subsearch's
 * n-th row, counted across pages. Each page goes on with its own columns, those the subsearch also
 * has (not its internal {@code _…} ones) laid over with the paired row's value where the position
 * has none (or always, with {@code override=true}), and the subsearch's other columns added after
 * them; the blocks of the columns the subsearch lacks pass through untouched. The subsearch rows
 * beyond the input's follow at the end as a page of their own, every column of theirs. The answer
 * of {@link AppendColsOperator} (the operator of {@link PageCommands#of}), without its hidden row
 * column.
 */
final class PairedColumnsOperator extends QueuedPageOperator {
  private final SubsearchRows subsearch;
  private final boolean override;
  private final BlockFactory factory;
  private final List<String> columns = new ArrayList<>();
  private int next;

  PairedColumnsOperator(SubsearchResult result, boolean override, OperatorContext context) {
    this.subsearch = new SubsearchRows(result, context, "appendcols", 0);
    this.override = override;
    this.factory = context.blockFactory();
    for (String column : subsearch.columns()) {
      if (!column.startsWith("_")) {
        columns.add(column);
      }
    }
  }

  @Override
  protected void process(Page page) {
    int first = next;
    int positions = page.positionCount();
    next = (int) Math.min(subsearch.rows(), (long) next + positions);
    if (first == next) {
      emit(page); // nothing left to pair: the page as it is
      return;
    }
    List<Schema.Column> schema = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    for (int c = 0; c < page.schema().size(); c++) {
      String name = page.schema().column(c).name();
      Block block = page.block(c);
      if (columns.contains(name)) {
        factory.release(block); // replaced
        block = paired(page, name, first);
      }
      schema.add(new Schema.Column(name, block.dataType()));
      blocks.add(block);
    }
    for (String name : columns) {
      if (page.schema().indexOf(name) < 0) {
        Block block = paired(page, name, first);
        schema.add(new Schema.Column(name, block.dataType()));
        blocks.add(block);
      }
    }
    emit(new Page(new Schema(schema), blocks, positions));
  }

  /** A subsearch column over the page's positions, paired from row {@code first} on. */
  private Block paired(Page page, String column, int first) {
    List<List<Object>> cells = new ArrayList<>(page.positionCount());
    for (int p = 0; p < page.positionCount(); p++) {
      List<Object> mine = SubsearchRows.values(page, column, p);
      int row = first + p;
      List<Object> theirs = row < next ? subsearch.values(row, column) : List.of();
      cells.add(!theirs.isEmpty() && (override || mine.isEmpty()) ? theirs : mine);
    }
    Block block = PageBuilder.column(column, cells);
    factory.reserve(block);
    return block;
  }

  @Override
  protected void onFinish() {
    if (next >= subsearch.rows()) {
      return;
    }
    List<String> all = subsearch.columns();
    List<List<List<Object>>> cells = new ArrayList<>();
    for (String column : all) {
      List<List<Object>> values = new ArrayList<>();
      for (int row = next; row < subsearch.rows(); row++) {
        values.add(subsearch.values(row, column));
      }
      cells.add(values);
    }
    next = subsearch.rows();
    emit(SubsearchRows.page(factory, null, all, cells));
  }

  @Override
  public void close() {
    subsearch.close();
  }
}
