package io.quarry.server.search;

import io.quarry.codecs.store.EventVisitor;
import io.quarry.codecs.store.ScanStats;
import io.quarry.codecs.store.StoredEvent;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.EventText;
import io.quarry.ql.exec.PageReduce;
import io.quarry.ql.exec.ReduceChain;
import io.quarry.ql.exec.StageStats;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.util.List;
import java.util.Set;
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
 * not supported.
 */
final class TimeOrderedPages {
  private TimeOrderedPages() {}

  /**
   * The {@code outputlookup} at {@code at} in an event listing ({@link EventTable}), its rows
   * counted; ending the listing, it hands the answer on to {@code results}, else to none.
   */
  private static EventTable eventTable(
      List<Command> pipeline,
      int at,
      Evaluator evaluator,
      Sourcetypes sourcetypes,
      boolean extract,
      StageStats stages,
      PageBatch.Results results) {
    io.quarry.ql.ast.OutputLookupCommand command =
        (io.quarry.ql.ast.OutputLookupCommand) pipeline.get(at);
    boolean last = at == pipeline.size() - 1;
    return new EventTable(
        command,
        evaluator.lookupWriter(),
        evaluator.memory(command.name()),
        sourcetypes,
        extract,
        page -> {
          stages.counted(at, page.positionCount(), 0);
          return !last || results.add(page);
        });
  }

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
      PageBatch.Results results,
      String skipSeenOf,
      Scan scan)
      throws IOException {
    SeenValuesSkip skip = skipSeenOf == null ? null : new SeenValuesSkip(skipSeenOf, control);
    // the same skip over blocks, sharing its values (a leading dedup: every event visited matches)
    BlockDedup blockSkip = skip == null ? null : new BlockDedup(skipSeenOf, skip.seen(), control);
    int fused = shape.fused();
    // outputlookup in the listing: it takes the listing's every row; ending it, it hands the
    // answer on, else the commands after it take the events as they came (tableInside)
    // (a listing's shape takes an outputlookup only where EventTable writes it)
    int appendAt = shape.appendAt();
    int tableAt =
        shape.listing() && fused == 0 && appendAt < 0 ? EventTable.position(pipeline) : -1;
    EventTable table =
        tableAt >= 0
            ? eventTable(
                pipeline, tableAt, evaluator, sourcetypes, !indexedFieldsOnly, stages, results)
            : null;
    boolean tableInside = table != null && tableAt < pipeline.size() - 1;
    EventListing listing =
        shape.listing()
            ? new EventListing(
                Set.copyOf(shape.sourceFields()),
                sourcetypes,
                !indexedFieldsOnly,
                shape.everyField(),
                shape.listed(),
                control,
                table != null && !tableInside
                    ? EventListing.UNLIMITED
                    : EventListing.roomOf(results),
                SearchService.pageSize())
            : null;
    if (table != null && !tableInside) {
      listing.carryingListedNames();
    }
    if (appendAt >= 0) {
      // an append's subsearch rows among the events: no events, listed as they are
      listing.withOtherRows(shape.listed().stagesFrom(appendAt + 1));
    }
    // outputlookup inside the listing: the events as the commands before it leave them go to a
    // listing of their own for the table, and on to the commands after it
    EventListing tableListing =
        tableInside
            ? new EventListing(
                    Set.copyOf(shape.sourceFields()),
                    sourcetypes,
                    !indexedFieldsOnly,
                    false,
                    shape.listed().stagesBefore(tableAt),
                    control,
                    EventListing.UNLIMITED,
                    SearchService.pageSize())
                .carryingListedNames()
            : null;
    int aggregateAt = shape.aggregateAt();
    // every field: the events the leading commands keep laid out in pages, every field
    // extracted, into the rest
    int listedAt = shape.everyField() && !shape.listing() ? fused + shape.listedAt() : -1;
    PluginOverEvents overPlugin =
        listedAt >= 0
                && fused == 0
                && !shape.wordsOverEveryField()
                && !TimeOrderedShape.everyFieldPlan(pipeline)
                && PluginOverEvents.startsAt(pipeline, listedAt)
            ? new PluginOverEvents(
                pipeline,
                listedAt,
                shape.listed(),
                Set.copyOf(shape.sourceFields()),
                sourcetypes,
                !indexedFieldsOnly,
                control,
                evaluator,
                results)
            : null;
    RenameOverEvents overRename =
        listedAt >= 0
                && fused == 0
                && overPlugin == null
                && !shape.wordsOverEveryField()
                && RenameOverEvents.at(pipeline) == listedAt
            ? new RenameOverEvents(
                pipeline,
                listedAt,
                shape.listed(),
                Set.copyOf(shape.sourceFields()),
                sourcetypes,
                !indexedFieldsOnly,
                control,
                evaluator,
                results,
                shape.pageSize())
            : null;
    // a bare word after the listing that asks the events' own text (eval _raw=… | table * |
    // search x): the listing's pages carry it, as the source's hand it over
    boolean ownTextAfterListing =
        listedAt >= 0 && shape.listed().changesEventText() && TimeOrderedShape.ownText(pipeline);
    // the commands from listedAt on over every-field pages of the events the commands before it
    // keep (EventListing: the changes of the commands before it, EveryFieldPlan), a step of the
    // chain
    boolean overEveryField = listedAt >= 0 && overPlugin == null && overRename == null;
    EventListing everyField = null;
    if (overEveryField) {
      everyField =
          new EventListing(
              Set.copyOf(shape.sourceFields()),
              sourcetypes,
              !indexedFieldsOnly,
              true,
              shape.listed(),
              control,
              EventListing.UNLIMITED,
              SearchService.pageSize());
      if (ownTextAfterListing) {
        everyField.carryingEventText();
      }
    }
    List<Command> staged =
        pipeline.subList(
            fused,
            listedAt >= 0
                ? listedAt
                : aggregateAt >= 0 ? aggregateAt : table != null ? tableAt : pipeline.size());
    // one pulled chain from the scan's source through the stages (and an aggregation's, a
    // listing's, a plugin's or a rename's after them) into what takes the answer
    ReduceChain chain = ReduceChain.of(evaluator, stages, SearchService.pageSize());
    // a listing's lookup, rex, rename mark what they set (ListedFields), and so do those before
    // plugin commands over events or a wildcard rename
    if (shape.ownText()) {
      chain.overEventsWithOwnText(staged, fused);
    } else if (listing != null || overPlugin != null || everyField != null) {
      chain.marking(staged, fused, shape.listed().valuesMarked());
    } else if (overRename != null) {
      chain.marking(staged, fused, RenameOverEvents.before(pipeline, listedAt).valuesMarked());
    } else {
      chain.overEvents(staged, fused);
    }
    PageReduce stagesOnPages;
    if (tableInside) {
      // every row into the table, and on to the commands after it (marking what they set)
      chain.thenWriting(
          new io.quarry.plugin.api.command.PageTransformOperator() {
            @Override
            protected Page process(Page page) {
              tableListing.push(page, table::add);
              return page;
            }
          });
      stagesOnPages =
          chain
              .marking(
                  pipeline.subList(tableAt + 1, pipeline.size()),
                  tableAt + 1,
                  shape.listed().valuesMarked())
              .then(listing)
              .into(results::add);
    } else if (listing != null) {
      stagesOnPages = chain.then(listing).into(table != null ? table::add : results::add);
    } else if (overPlugin != null) {
      stagesOnPages = overPlugin.chain(chain);
    } else if (overRename != null) {
      stagesOnPages = overRename.chain(chain);
    } else if (everyField != null) {
      List<Command> after = pipeline.subList(listedAt, pipeline.size());
      stagesOnPages =
          ownTextAfterListing
              ? chain
                  .then(everyField)
                  .overEventsWithOwnText(after, listedAt)
                  .into(page -> results.add(ListingColumns.withoutHidden(page))) // table * kept
              : chain.then(everyField).overEvents(after, listedAt).into(results::add);
    } else if (aggregateAt >= 0) {
      // the aggregation and the commands after it over its answer (one thread: no partials; a
      // plugin's map and reduce sides consecutive steps), in arrival order
      stagesOnPages =
          chain
              .overResults(pipeline.subList(aggregateAt, pipeline.size()), aggregateAt)
              .into(results::add);
    } else {
      stagesOnPages = chain.into(results::add);
    }
    // the scan is the source of the stages' driver, pulled a page's worth at a time: once a head
    // has its rows or the answer is full, the driver closes it and it reads no further
    ScanSourceOperator reading = new ScanSourceOperator(shape.pageSize());
    // the extraction reads the events' own _raw and sourcetype where a command changes them
    boolean eventText =
        listing != null
                && (shape.listed().changesEventText()
                    || TimeOrderedShape.ownText(pipeline)
                    || appendAt >= 0) // an event's text marks it apart from the subsearch's rows
            || overPlugin != null // the plugin commands' batches carry it (PluginOverEvents)
            || everyField != null && shape.listed().changesEventText()
            || overRename != null && RenameOverEvents.before(pipeline, listedAt).changesEventText();
    boolean ownText = shape.ownText(); // not a listing: its own text under a hidden name only
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
    EventPages pages =
        listing != null || everyField != null || overPlugin != null || overRename != null
            ? source.listing()
            : source;
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
      if (tableInside) {
        tableListing.finishInto(table::add);
      }
      if (table != null) {
        long started = System.nanoTime();
        table.finish();
        stages.timed(tableAt, System.nanoTime() - started);
      }
      return scanned;
    } finally {
      stagesOnPages.close();
      if (tableListing != null) {
        tableListing.close();
      }
      if (table != null) {
        table.close();
      }
    }
  }
}
