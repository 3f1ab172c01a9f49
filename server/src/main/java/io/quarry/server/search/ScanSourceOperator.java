package io.quarry.server.search;

import io.quarry.codecs.store.SliceCursor;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.Page;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;

/**
 * One segment slice of a batch scan as the source operator of the slice's {@link
 * io.quarry.ql.exec.Driver} (ES|QL's {@code LuceneSourceOperator}): it needs no input, and each
 * {@link #getOutput} advances the slice's {@link SliceCursor} a page's worth of events at a time
 * into the slice's page builder ({@link EventPages}, which hands its pages back through {@link
 * #add}) until a page is ready or the slice ends. Finished when the slice ended and every page went
 * out, or early when the chain after it needs no more ({@link #finish}); the scan then reads no
 * further. A read that fails goes up unchecked, the slice's scan (which quarantines a damaged
 * bucket) unwrapping it.
 */
final class ScanSourceOperator implements Operator {
  private final int eventsPerPage;
  private final ArrayDeque<Page> ready = new ArrayDeque<>();
  private SliceCursor cursor; // null until the scan opened the slice
  private boolean stopped;

  /** A source whose page builder flushes every {@code eventsPerPage} events. */
  ScanSourceOperator(int eventsPerPage) {
    this.eventsPerPage = eventsPerPage;
  }

  /** The slice to read, once the scan opened it. */
  void open(SliceCursor cursor) {
    this.cursor = cursor;
  }

  /** A page the slice's page builder made. */
  void add(Page page) {
    ready.add(page);
  }

  @Override
  public boolean needsInput() {
    return false;
  }

  @Override
  public void addInput(Page page) {
    throw new UnsupportedOperationException("a scan source takes no input");
  }

  @Override
  public Page getOutput() {
    if (cursor == null) {
      throw new IllegalStateException("the scan has not opened the slice yet");
    }
    try {
      while (ready.isEmpty() && !stopped && !cursor.ended()) {
        cursor.advance(eventsPerPage); // one page at most, and the last one when the slice ends
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return ready.poll();
  }

  /** The chain after it needs no more: the scan stops reading. */
  @Override
  public void finish() {
    stopped = true;
  }

  @Override
  public boolean isFinished() {
    return ready.isEmpty() && (stopped || cursor != null && cursor.ended());
  }

  @Override
  public void close() {
    stopped = true;
    ready.clear();
  }
}
