package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.MstatsCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * {@code mstats prestats=true append=true} later in a pipeline, on pages: the pages before it pass
 * on unchanged; when they end, the points it selects follow as typed pages, each read from the
 * metric store when it is pulled ({@link MetricAppend.Points#next}: the store's cursor advanced
 * chunk by chunk until a page is full), nothing read ahead. The read stops once the commands after
 * it want no more (a head has its rows) or the operator closes; its messages go to the search's
 * warnings either way.
 */
final class MstatsAppendOperator extends QueuedPageOperator {
  private final MstatsCommand command;
  private final Evaluator evaluator;
  private final int pageSize;
  private final BooleanSupplier full;
  private MetricAppend.Points points; // open from the end of the input until the read ends

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
    if (!full.getAsBoolean()) {
      try {
        points = evaluator.metricAppend().open(command, pageSize, evaluator.stopped());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  @Override
  protected Page produce() {
    if (points == null) {
      return null;
    }
    if (full.getAsBoolean()) {
      end(); // the commands after it want no more: nothing more is read
      return null;
    }
    Page page;
    try {
      page = points.next();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (page == null) {
      end();
    }
    return page;
  }

  /** The read is over (or stopped): its messages to the search's warnings. */
  private void end() {
    MetricAppend.Points read = points;
    points = null;
    List<String> messages;
    try {
      messages = read.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    messages.forEach(evaluator::warn);
  }

  @Override
  public void close() {
    if (points != null) {
      end(); // stopped early (a failure, a cancel): the store let go, the messages still said
    }
  }
}
