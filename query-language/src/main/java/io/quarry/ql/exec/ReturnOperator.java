package io.quarry.ql.exec;

import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.FormatCommand;
import io.quarry.ql.ast.ReturnCommand;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code return}: the first {@code count} rows become terms — {@code name="value"} per item, {@code
 * $field} the value alone, a row's terms separated by spaces — one row as is, several as {@code
 * (row) OR (row)}; answered as one row with a {@code search} field. No row with a returned field,
 * no answer.
 */
final class ReturnOperator extends QueuedPageOperator {
  private final ReturnCommand command;
  private final BlockFactory factory;
  private final List<String> rows = new ArrayList<>();
  private long seen;

  ReturnOperator(ReturnCommand command, OperatorContext context) {
    this.command = command;
    this.factory = context.blockFactory();
  }

  @Override
  protected void process(Page page) {
    try {
      for (int p = 0; p < page.positionCount() && seen < command.count(); p++) {
        seen++;
        List<String> terms = new ArrayList<>();
        for (ReturnCommand.Item item : command.items()) {
          List<String> values = SearchTextFormat.texts(page, item.field(), p);
          if (!values.isEmpty()) {
            terms.add(
                SearchTextFormat.term(
                    item.name(), values, FormatCommand.DEFAULT_MVSEP, item.valueOnly()));
          }
        }
        if (!terms.isEmpty()) {
          rows.add(String.join(" ", terms));
        }
      }
    } finally {
      factory.release(page);
    }
  }

  @Override
  protected void onFinish() {
    if (rows.isEmpty()) {
      return;
    }
    String text = rows.size() == 1 ? rows.get(0) : "(" + String.join(") OR (", rows) + ")";
    emit(FormatOperator.searchPage(factory, text));
  }

  @Override
  public void close() {}
}
