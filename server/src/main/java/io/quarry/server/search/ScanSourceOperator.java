package io.quarry.server.search;

import io.quarry.codecs.store.EventCursor;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.Page;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;

/**
 * A scan as the source operator of a {@link io.quarry.ql.exec.Driver} (ES|QL's {@code
 * LuceneSourceOperator}): one segment slice of a batch scan ({@link
 * io.quarry.codecs.store.SliceCursor}), or the newest-first scan of a time-ordered search ({@link
 * io.quarry.codecs.store.TimeOrderedCursor}). It needs no input, and each {@link #getOutput}
 * advances the scan's {@link EventCursor} a page's worth of events at a time into the page builder
 * ({@link EventPages}, which hands its pages back through {@link #add}) until a page is ready or
 * the scan ends. Finished when the scan ended and every page went out, or early when the chain
 * after it needs no more ({@link #finish}); the scan then reads no further. A read that fails goes
 * up unchecked, the scan's caller unwrapping it (a batch slice quarantines a damaged bucket).
 */
final class ScanSourceOperator implements Operator {
  private final int eventsPerPage;
  private final ArrayDeque<Page> ready = new ArrayDeque<>();
  private EventCursor cursor; // null until the scan opened
  private boolean stopped;

  /** A source whose page builder flushes every {@code eventsPerPage} events. */
  ScanSourceOperator(int eventsPerPage) {
    this.eventsPerPage = eventsPerPage;
  }

  /** The scan to read, once opened. */
  void open(EventCursor cursor) {
    this.cursor = cursor;
  }

  /** A page the scan's page builder made. */
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
      throw new IllegalStateException("the scan has not opened yet");
    }
    try {
      while (ready.isEmpty() && !stopped && !cursor.ended()) {
        cursor.advance(eventsPerPage); // one page at most, and the last one when the scan ends
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
