package io.quarry.ql.exec;

import io.quarry.ql.ast.MstatsCommand;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * {@code mstats prestats=true append=true} later in a pipeline: the rows before it pass on
 * unchanged; when they end, the points it selects follow as prestats rows (streamed from the metric
 * store, nothing held), then the end. Its messages go to the search's warnings.
 */
final class MstatsAppendOperator implements RowSink {
  private final MstatsCommand command;
  private final Evaluator evaluator;
  private final RowSink downstream;
  private boolean open = true;

  MstatsAppendOperator(MstatsCommand command, Evaluator evaluator, RowSink downstream) {
    this.command = command;
    this.evaluator = evaluator;
    this.downstream = downstream;
  }

  @Override
  public boolean accept(Row row) {
    if (!open) {
      return false;
    }
    open = downstream.accept(row);
    // the rows before it may stop coming early (a head after it is satisfied): ask for no more
    return open;
  }

  @Override
  public void finish() {
    if (open) {
      try {
        evaluator
            .metricAppend()
            .append(command, row -> open = downstream.accept(row), evaluator.stopped())
            .forEach(evaluator::warn);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    downstream.finish();
  }
}
