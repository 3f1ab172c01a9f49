package io.quarry.ql.exec;

import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.SubsearchResult;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code appendcols [ … ]}: the subsearch's n-th row's fields (not the internal {@code _…} ones)
 * are added to the n-th input row — a field both have keeps the row's value unless {@code
 * override=true}; subsearch rows beyond the input's follow as new rows.
 */
final class AppendColsOperator extends QueuedPageOperator {
  private final SubsearchRows subsearch;
  private final boolean override;
  private final BlockFactory factory;
  private final List<String> columns = new ArrayList<>();
  private int next;

  AppendColsOperator(SubsearchResult result, boolean override, OperatorContext context) {
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
    try {
      LongBlock ids = (LongBlock) page.block(PluginOperators.ROW_COLUMN);
      List<Long> outIds = new ArrayList<>();
      List<List<List<Object>>> cells = new ArrayList<>();
      columns.forEach(c -> cells.add(new ArrayList<>()));
      for (int p = 0; p < page.positionCount(); p++) {
        outIds.add(ids.getLong(p)); // every row goes on, with the fields it gets
        boolean paired = next < subsearch.rows();
        for (int c = 0; c < columns.size(); c++) {
          List<Object> mine = SubsearchRows.values(page, columns.get(c), p);
          List<Object> theirs = paired ? subsearch.values(next, columns.get(c)) : List.of();
          cells.get(c).add(!theirs.isEmpty() && (override || mine.isEmpty()) ? theirs : mine);
        }
        if (paired) {
          next++;
        }
      }
      emit(SubsearchRows.page(factory, outIds, columns, cells));
    } finally {
      factory.release(page);
    }
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
    emit(SubsearchRows.page(factory, null, all, cells));
  }

  @Override
  public void close() {
    subsearch.close();
  }
}
