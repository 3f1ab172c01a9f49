package io.quarry.server.search;

import io.quarry.codecs.store.EventVisitor;
import io.quarry.codecs.store.ScanStats;
import io.quarry.codecs.store.StoredEvent;
import io.quarry.ql.ast.Command;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.EventText;
import io.quarry.ql.exec.PageReduce;
import io.quarry.ql.exec.StageStats;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Time-ordered mode (a search without an aggregation: events newest first) on pages, for a pipeline
 * whose answer has known columns: leading {@code rex} extractions the source runs itself, then
 * commands that all have page stages ({@link PageReduce}: {@code eval}, {@code where}, {@code
 * rename}, {@code bin}, streaming plugin commands, {@code sort}, {@code head}, {@code dedup} …)
 * among which a {@code table} or {@code fields} of literal names, an aggregation, a {@code return}
 * or a {@code map} (each reads only its own fields) fixes the columns (the commands before it read
 * only the fields {@link io.quarry.ql.exec.InputFields#of} names). The events become pages of only
 * the fields those commands read ({@link EventPages}, one source over the whole time-ordered scan),
 * and pages go through the stages to the answer, pulled: the scan is the source operator of the
 * stages' driver ({@link ScanSourceOperator} over the store's {@link
 * io.quarry.codecs.store.TimeOrderedCursor}, a page of events per pull), so once a {@code head} has
 * its rows or the answer is full the driver closes it and it reads no further. A plain event
 * listing, with only commands after it that filter, cut or reorder its events ({@link
 * ListedCommands#keepsEvents}) or that set, move or remove fields as {@link ListedFields} replays
 * them ({@code eval}, {@code rex}, {@code lookup}, {@code rename}, {@code fields -}), runs on pages
 * too: the source then carries every field an event has without extraction, and {@link
 * EventListing} makes the answer's pages. A pipeline {@link TimeOrderedShape#of} gives no shape is
 * not supported. This class runs the scan into the chain; {@link TimeOrderedChain} builds the
 * chain.
 */
final class TimeOrderedPages {
  private TimeOrderedPages() {}

  /**
   * The scan that feeds a visitor: the store's time-ordered scan over the search's indexes, pulled
   * by {@code reader} through its cursor ({@link io.quarry.codecs.store.EventStore#scan(List,
   * org.apache.lucene.search.Query, long, long, EventVisitor,
   * io.quarry.codecs.store.EventStore.CursorReader)}).
   */
  @FunctionalInterface
  interface Scan {
    ScanStats run(EventVisitor visitor, io.quarry.codecs.store.EventStore.CursorReader reader)
        throws IOException;
  }

  /**
   * Runs {@code pipeline} in {@code shape} over {@code scan}, its answer into {@code results};
   * {@code filter} is the per-event filter of an inexact index query (null: none); {@code
   * skipSeenOf}, when not null, is the field of a leading {@code dedup} whose repeated values the
   * scan skips unread ({@link SeenValuesSkip}).
   */
  static ScanStats run(
      TimeOrderedShape shape,
      List<Command> pipeline,
      Sourcetypes sourcetypes,
      SearchControl control,
      EventFilter filter,
      boolean indexedFieldsOnly,
      AtomicLong matched,
      StageStats stages,
      Evaluator evaluator,
      PageResults results,
      String skipSeenOf,
      Scan scan)
      throws IOException {
    SeenValuesSkip skip = skipSeenOf == null ? null : new SeenValuesSkip(skipSeenOf, control);
    // the same skip over blocks, sharing its values (a leading dedup: every event visited matches)
    BlockDedup blockSkip = skip == null ? null : new BlockDedup(skipSeenOf, skip.seen(), control);
    int fused = shape.fused();
    TimeOrderedChain chain =
        TimeOrderedChain.of(
            shape, pipeline, sourcetypes, control, indexedFieldsOnly, stages, evaluator, results);
    PageReduce stagesOnPages = chain.stages();
    boolean eventText = chain.eventText();
    boolean ownText = shape.ownText(); // not a listing: its own text under a hidden name only
    // the scan is the source of the stages' driver, pulled a page's worth at a time: once a head
    // has its rows or the answer is full, the driver closes it and it reads no further
    ScanSourceOperator reading = new ScanSourceOperator(shape.pageSize());
    EventPages source =
        new EventPages(
                shape.sourceFields(),
                pipeline.subList(0, fused),
                evaluator.stopped(),
                indexedFieldsOnly,
                sourcetypes,
                control,
                filter,
                matched,
                shape.pageSize(),
                page -> {
                  for (int stage = 0; stage < fused; stage++) {
                    stages.counted(stage, page.positionCount(), 0);
                  }
                  reading.add(
                      eventText
                          ? ListingColumns.withEventText(page)
                          : ownText ? EventText.withOwnText(page) : page);
                },
                () -> {},
                () -> {})
            .typedValues();
    EventPages pages = chain.listingPages() ? source.listing() : source;
    boolean[] pulled = {false}; // whether the scan opened and the chain ran
    try {
      stagesOnPages.pullFrom(reading);
      ScanStats scanned =
          scan.run(
              new EventVisitor() {
                @Override
                public boolean visit(StoredEvent event) {
                  if (blockSkip != null) {
                    blockSkip.visited(event);
                  }
                  return pages.visit(event);
                }

                @Override
                public DocShortcut shortcut(org.apache.lucene.index.LeafReader reader)
                    throws IOException {
                  return skip == null ? null : skip.shortcut(reader);
                }

                @Override
                public BlockShortcut blockShortcut(org.apache.lucene.index.LeafReader reader)
                    throws IOException {
                  return blockSkip == null ? null : blockSkip.shortcut(reader);
                }

                @Override
                public void finish() {
                  pages.finish();
                }

                @Override
                public void close() {
                  pages.close();
                }
              },
              cursor -> {
                reading.open(cursor);
                pulled[0] = true;
                try {
                  stagesOnPages.run(); // the scan, through the stages, into what takes their pages
                } catch (java.io.UncheckedIOException e) {
                  throw e.getCause(); // a read that failed
                }
              });
      if (skip != null) { // the skipped events were the dedup's (stage 0's) input all the same
        stages.counted(0, skip.skipped() + blockSkip.skipped(), 0);
        matched.addAndGet(skip.skipped() + blockSkip.skipped());
        skip.reportRead();
      }
      if (!pulled[0]) { // the scan never opened: the stages still answer over no events
        reading.finish();
        stagesOnPages.run();
      }
      chain.finish();
      return scanned;
    } finally {
      chain.close();
    }
  }
}
