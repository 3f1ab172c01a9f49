package io.quarry.server.search;

import io.quarry.codecs.store.EventFields;
import io.quarry.codecs.store.EventRun;
import io.quarry.codecs.store.StoredEvent;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import java.util.ArrayList;
import java.util.List;

/**
 * The columns an {@link EventPages} slice builds its pages in, and how an event or a block run is
 * appended to them: an event's columns share one extraction, appended {@code _time} last; a run is
 * filled one loop per column where every column answers its events ({@link RunFill}), else event by
 * event. Counts the events put on pages by run until {@link #takeEventsByRun}.
 */
final class SliceColumns {
  private final EventReading reading;
  private final EventColumn[] columns;
  private final RunFill[] runFills; // how each column fills a block run
  // the columns in the order an event's values are appended: _time last, so that a block another
  // column decodes answers its times rather than a prefix read before it (the pages keep columns)
  private final int[] appendOrder;
  private final boolean[] answered; // of a run's chunk: whether every column answers the event
  // events put on pages by this slice's runs, added to the search's statistic once accounted
  private long eventsByRun;

  SliceColumns(List<EventColumn> columns, EventReading reading, int pageSize) {
    this.reading = reading;
    this.columns = columns.toArray(EventColumn[]::new);
    this.runFills = new RunFill[this.columns.length];
    for (int c = 0; c < runFills.length; c++) {
      runFills[c] = new RunFill(this.columns[c], pageSize);
    }
    this.appendOrder = appendOrder(this.columns);
    this.answered = new boolean[Math.min(pageSize, SearchControl.EVERY)];
  }

  /** The column at {@code c}. */
  EventColumn column(int c) {
    return columns[c];
  }

  /** The columns' blocks as built so far (each column starts over), with their schema's columns. */
  void build(List<Schema.Column> schema, List<Block> blocks) {
    for (EventColumn column : columns) {
      Block block = column.build();
      schema.add(new Schema.Column(column.name, block.dataType()));
      blocks.add(block);
    }
  }

  /** The events put on pages by run since the last call. */
  long takeEventsByRun() {
    long taken = eventsByRun;
    eventsByRun = 0;
    return taken;
  }

  /** Closes every column: a whole dictionary held goes back, the slice reads no more of it. */
  void close() {
    for (EventColumn column : columns) {
      column.close();
    }
  }

  /**
   * The columns' indexes, {@code _time}'s last: an event's time read by a block run before another
   * column decodes the block would be read twice — from its first bytes ({@code BlockEvents}'
   * prefix read), then with the whole block.
   */
  private static int[] appendOrder(EventColumn[] columns) {
    int[] order = new int[columns.length];
    int next = 0;
    for (int c = 0; c < columns.length; c++) {
      if (!columns[c].name.equals(EventFields.TIME)) {
        order[next++] = c;
      }
    }
    for (int c = 0; c < columns.length; c++) {
      if (columns[c].name.equals(EventFields.TIME)) {
        order[next++] = c;
      }
    }
    return order;
  }

  /** Appends the event's values at position {@code rows}, its columns sharing one extraction. */
  void append(StoredEvent event, int rows) {
    reading.nextEvent();
    FieldExtractor extracted = null; // one extraction for every column
    for (int c : appendOrder) {
      extracted = columns[c].append(event, extracted, rows);
    }
  }

  /**
   * Whether every column fills a run in one loop ({@link RunFill#fillsRuns}: {@code _time}, a fused
   * {@code rex}'s field, an index-time field by its ordinals, a key=value field).
   */
  boolean fillsRuns() {
    for (RunFill column : runFills) {
      if (!column.fillsRuns()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Appends events {@code [from, from + count)} of {@code run} at positions from {@code rows} on:
   * each stretch of events every column answers ({@link RunFill#answers}) by one loop per column,
   * each other event as an event, its columns sharing one extraction.
   */
  void appendChunk(EventRun run, int from, int count, int rows) {
    long started = System.nanoTime();
    boolean[] answered = this.answered;
    for (int i = 0; i < count; i++) {
      boolean all = true;
      for (RunFill column : runFills) {
        all &= column.answers(run, from + i, rows + i); // every column: a rex keeps its span
      }
      answered[i] = all;
    }
    long runNanos = 0;
    for (int i = 0; i < count; ) {
      int end = i;
      while (end < count && answered[end]) {
        end++;
      }
      for (RunFill column : runFills) {
        column.appendRun(run, from + i, end - i, rows + i);
      }
      eventsByRun += end - i;
      if (end < count) { // timed by its own path's sampled clock
        runNanos += System.nanoTime() - started;
        reading.nextEvent();
        StoredEvent event = run.event(from + end);
        FieldExtractor extracted = null;
        for (int c : appendOrder) {
          extracted = runFills[c].appendProbed(event, extracted, rows + end);
        }
        started = System.nanoTime();
        end++;
      }
      i = end;
    }
    reading.extraction().add(runNanos + System.nanoTime() - started);
  }

  /**
   * The most a column reads of {@code run} ({@link RunFill#runFill}): when every column reads its
   * events' own index-time values the run goes event by event, its block decoded only if an event's
   * value needs it; the block's ASCII answer (which decodes it) is asked only when a column reads
   * the texts.
   */
  int fill(EventRun run) {
    int fill = RunFill.BY_EVENT;
    for (RunFill column : runFills) {
      fill = Math.max(fill, column.runFill(run));
    }
    return fill;
  }

  /**
   * The filter's {@code page} of the {@code count} kept positions ({@code positions} of the page
   * built, null: all of them) with each column that held a typed cell typed over those alone, once,
   * after the filter read its texts ({@link TypedCells}).
   */
  Page keptTyped(Page page, int[] positions, int count) {
    List<Schema.Column> schema = null;
    List<Block> blocks = null;
    for (int c = 0; c < page.blocks().size(); c++) {
      Block typed = columns[c].kept(positions, count);
      if (typed != null) {
        if (schema == null) {
          schema = new ArrayList<>(page.schema().columns());
          blocks = new ArrayList<>(page.blocks());
        }
        schema.set(c, new Schema.Column(columns[c].name, typed.dataType()));
        blocks.set(c, typed);
      }
    }
    return schema == null ? page : new Page(new Schema(schema), blocks, count);
  }
}
