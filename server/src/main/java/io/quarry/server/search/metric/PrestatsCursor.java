package io.quarry.server.search.metric;

import io.quarry.codecs.metricstore.MetricCursor;
import io.quarry.codecs.metricstore.MetricScanStats;
import io.quarry.codecs.metricstore.MetricScanVisitor;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.MstatsCommand;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * {@code mstats prestats=true}'s points as pages pulled one at a time (by the pipeline after it, or
 * by an {@code mstats append=true} later in a pipeline): the indexes one after the other, each
 * through the store's {@link MetricCursor}, advanced a chunk at a time into {@link PrestatsPages}
 * until a page is full, nothing read ahead but the rest of the chunk that filled the page. {@link
 * #close} lets go of the bucket being read.
 */
public final class PrestatsCursor {
  private final List<String> indexes;
  private final Function<String, MetricCursor> cursors;
  private final BooleanSupplier stopped;
  private final ArrayDeque<Page> ready = new ArrayDeque<>();
  private final PrestatsPages points;
  private int nextIndex;
  private MetricCursor cursor; // the index being read, or null
  private MetricScanVisitor visitor;
  private MetricScanStats read = MetricScanStats.NONE;
  private boolean over;

  /**
   * @param cursors an index's cursor over the series the command reads
   * @param stopped asked before each series: the search's time limit, finalize or cancel
   */
  PrestatsCursor(
      MstatsCommand mstats,
      int pageSize,
      List<String> indexes,
      Function<String, MetricCursor> cursors,
      BooleanSupplier stopped) {
    this.indexes = List.copyOf(indexes);
    this.cursors = cursors;
    this.stopped = stopped;
    this.points = new PrestatsPages(mstats, pageSize, ready::add, stopped);
  }

  /** The next page of points; null when none is left (or the search stopped). */
  public Page next() throws IOException {
    while (ready.isEmpty() && !over) {
      if (cursor == null && nextIndex < indexes.size() && !stopped.getAsBoolean()) {
        String index = indexes.get(nextIndex++);
        cursor = cursors.apply(index);
        visitor = points.visitor(index);
      } else if (cursor == null) {
        over = true;
        points.finish(); // the last, partial page
      } else if (!cursor.advance(visitor) || stopped.getAsBoolean()) {
        endIndex();
      }
    }
    return ready.poll();
  }

  /**
   * The pages of {@link #next} as an iterator (a read that fails throws {@link
   * java.io.UncheckedIOException}), for a pulled source ({@code exec.PagesSource}).
   */
  public java.util.Iterator<Page> pages() {
    return new java.util.Iterator<>() {
      private Page peeked;
      private boolean ended;

      @Override
      public boolean hasNext() {
        if (peeked == null && !ended) {
          try {
            peeked = PrestatsCursor.this.next();
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
          ended = peeked == null;
        }
        return peeked != null;
      }

      @Override
      public Page next() {
        if (!hasNext()) {
          throw new java.util.NoSuchElementException();
        }
        Page page = peeked;
        peeked = null;
        return page;
      }
    };
  }

  /** The read is over, read through or not: what it read of the store. */
  public MetricScanStats close() throws IOException {
    over = true;
    ready.clear();
    endIndex();
    return read;
  }

  private void endIndex() throws IOException {
    if (cursor != null) {
      MetricCursor ending = cursor;
      cursor = null;
      read = read.plus(ending.stats());
      ending.close();
    }
  }
}
