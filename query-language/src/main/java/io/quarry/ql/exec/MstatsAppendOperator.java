package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.MstatsCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * {@code mstats prestats=true append=true} later in a pipeline, on pages: the pages before it pass
 * on unchanged; when they end, the points it selects follow as typed pages ({@link
 * MetricAppend#appendPages}, streamed from the metric store, nothing held), one page built per page
 * pulled: the store's scan pushes its pages, so it runs on a thread of its own that hands each page
 * over and waits until the next is asked for. The scan stops once the commands after it want no
 * more (a head has its rows) or the operator closes. Its messages go to the search's warnings.
 */
final class MstatsAppendOperator extends QueuedPageOperator {
  private final MstatsCommand command;
  private final Evaluator evaluator;
  private final int pageSize;
  private final BooleanSupplier full;
  private final SynchronousQueue<Object> handoff = new SynchronousQueue<>();
  private volatile boolean closed;
  private Thread scan;
  private volatile Object outcome; // the scan's messages or failure, once it is over
  private boolean delivered; // the outcome was taken by produce()
  private long pagesBuilt; // pages the scan handed over

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
    MetricAppend append = evaluator.metricAppend();
    scan =
        Thread.ofVirtual()
            .name("mstats-append")
            .start(
                () -> {
                  Object last;
                  try {
                    last =
                        append.appendPages(
                            command,
                            pageSize,
                            this::handOver,
                            () -> closed || evaluator.stopped().getAsBoolean());
                  } catch (IOException e) {
                    last = new UncheckedIOException(e);
                  } catch (RuntimeException | Error e) {
                    last = e;
                  }
                  outcome = last;
                  handOver(last);
                });
  }

  /** Waits until the page is taken or the operator closes; whether the scan goes on. */
  private boolean handOver(Object item) {
    try {
      while (!closed) {
        if (handoff.offer(item, 10, TimeUnit.MILLISECONDS)) {
          return true;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return false;
  }

  @Override
  @SuppressWarnings("unchecked")
  protected Page produce() {
    if (scan == null || full.getAsBoolean()) {
      return null; // the commands after it want no more: the scan stops at its next page
    }
    Object next;
    try {
      next = handoff.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while mstats append=true read", e);
    }
    switch (next) {
      case Page page -> {
        pagesBuilt++;
        return page;
      }
      case List<?> messages -> {
        delivered = true;
        ((List<String>) messages).forEach(evaluator::warn);
        return null;
      }
      case RuntimeException e -> {
        delivered = true;
        throw e;
      }
      case Error e -> {
        delivered = true;
        throw e;
      }
      default -> throw new IllegalStateException("unexpected " + next);
    }
  }

  /** The pages the metric store's scan has built and handed on so far. */
  long pagesBuilt() {
    return pagesBuilt;
  }

  @Override
  public void close() {
    closed = true;
    if (scan != null) {
      try {
        scan.join(); // what it read is counted before the search's costs are
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (!delivered && outcome instanceof List<?> messages) {
        messages.forEach(m -> evaluator.warn((String) m)); // stopped early: still said
      }
    }
  }
}
