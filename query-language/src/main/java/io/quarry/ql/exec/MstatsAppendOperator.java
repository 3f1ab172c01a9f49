package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.MstatsCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.BooleanSupplier;

/**
 * {@code mstats prestats=true append=true} later in a pipeline, on pages: the pages before it pass
 * on unchanged; when they end, the points it selects follow as typed pages ({@link
 * MetricAppend#appendPages}, streamed from the metric store, nothing held) until the commands after
 * it want no more. Its messages go to the search's warnings.
 */
final class MstatsAppendOperator extends QueuedPageOperator {
  private final MstatsCommand command;
  private final Evaluator evaluator;
  private final int pageSize;
  private final BooleanSupplier full;

  /** {@code full}: true once the stages after it take nothing more (a head has its rows). */
  MstatsAppendOperator(
      MstatsCommand command, Evaluator evaluator, int pageSize, BooleanSupplier full) {
    this.command = command;
    this.evaluator = evaluator;
    this.pageSize = pageSize;
    this.full = full;
  }

  @Override
  protected void process(Page page) {
    emit(page);
  }

  @Override
  protected void onFinish() {
    if (full.getAsBoolean()) {
      return;
    }
    try {
      evaluator
          .metricAppend()
          .appendPages(
              command,
              pageSize,
              page -> {
                emit(page);
                return !full.getAsBoolean();
              },
              evaluator.stopped())
          .forEach(evaluator::warn);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
