package io.quarry.ql.exec;

import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.SubsearchResult;

/**
 * {@code append [ … ]}: every input page passes through unchanged; when the input ends, the
 * subsearch's pages (run before the search, held on its memory account) follow as new rows.
 */
final class AppendOperator extends QueuedPageOperator {
  private final SubsearchRows subsearch;

  AppendOperator(SubsearchResult result, OperatorContext context) {
    this.subsearch = new SubsearchRows(result, context, "append", 0);
  }

  @Override
  protected void process(Page page) {
    emit(page);
  }

  @Override
  protected void onFinish() {
    for (Page page : subsearch.pages()) {
      subsearch.handedOn(page);
      emit(page);
    }
  }

  @Override
  public void close() {
    subsearch.close();
  }
}
