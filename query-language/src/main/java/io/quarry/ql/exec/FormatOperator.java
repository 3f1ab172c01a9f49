package io.quarry.ql.exec;

import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.FormatCommand;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code format}: keeps the input pages (the first {@code maxresults} rows' worth, counted on the
 * search's memory) and answers one row whose {@code search} field is their search text.
 */
final class FormatOperator extends QueuedPageOperator {
  private final FormatCommand command;
  private final BlockFactory factory;
  private final List<Page> kept = new ArrayList<>();
  private long rows;

  FormatOperator(FormatCommand command, OperatorContext context) {
    this.command = command;
    this.factory = context.blockFactory();
  }

  @Override
  protected void process(Page page) {
    if (command.maxResults() > 0 && rows >= command.maxResults()) {
      factory.release(page);
      return;
    }
    kept.add(page); // stays reserved until the answer is made
    rows += page.positionCount();
  }

  @Override
  protected void onFinish() {
    String text =
        SearchTextFormat.format(
            kept, command.maxResults(), command.mvsep(), command.delimiters(), command.emptyStr());
    releaseKept();
    emit(searchPage(factory, text));
  }

  /** One row, one {@code search} column holding {@code text}, reserved on {@code factory}. */
  static Page searchPage(BlockFactory factory, String text) {
    Block block = BytesBlock.builder(1).append(text).build();
    factory.reserve(block);
    return new Page(
        new Schema(List.of(new Schema.Column(SearchTextFormat.SEARCH_FIELD, DataType.STRING))),
        List.of(block),
        1);
  }

  private void releaseKept() {
    kept.forEach(factory::release);
    kept.clear();
  }

  @Override
  public void close() {
    releaseKept();
  }
}
