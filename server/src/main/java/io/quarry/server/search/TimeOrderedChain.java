package io.quarry.server.search;

import io.quarry.ql.ast.Command;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.PageReduce;
import io.quarry.ql.exec.ReduceChain;
import io.quarry.ql.exec.StageStats;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.List;

/**
 * The pulled chain of a time-ordered search ({@link TimeOrderedPages}) from its scan's pages to the
 * answer, as {@link TimeOrderedShape} shapes it: the stages of the commands the source does not run
 * itself, then — one {@link ReduceChain} — an aggregation and the commands after it over its
 * answer, or the event listing that makes the answer's pages ({@link EventListing}, with the table
 * of an {@code outputlookup} ending it or inside it, {@link EventTable}), the every-field listing
 * and the commands after it, the runs of plugin commands over events ({@link PluginOverEvents}) or
 * a wildcard {@code rename}'s ({@link RenameOverEvents}). It also says what the source's pages must
 * carry: the events' own text ({@link #eventText}), every field of an event ({@link
 * #listingPages}). {@link #finish} writes a table once the scan is over; {@link #close} releases
 * what the chain and the table hold.
 */
final class TimeOrderedChain {
  private final PageReduce reduce;
  private final boolean eventText;
  private final boolean listingPages;
  private final EventTable table; // null: no outputlookup in the listing
  private final int tableAt;
  private final StageStats stages;

  private TimeOrderedChain(
      PageReduce reduce,
      boolean eventText,
      boolean listingPages,
      EventTable table,
      int tableAt,
      StageStats stages) {
    this.reduce = reduce;
    this.eventText = eventText;
    this.listingPages = listingPages;
    this.table = table;
    this.tableAt = tableAt;
    this.stages = stages;
  }

  /**
   * The chain of {@code pipeline} in {@code shape}, its answer into {@code results}; not pulling
   * yet ({@link PageReduce#pullFrom}).
   */
  static TimeOrderedChain of(
      TimeOrderedShape shape,
      List<Command> pipeline,
      Sourcetypes sourcetypes,
      SearchControl control,
      boolean indexedFieldsOnly,
      StageStats stages,
      Evaluator evaluator,
      PageResults results) {
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
    try {
      return of(
          shape,
          pipeline,
          sourcetypes,
          control,
          indexedFieldsOnly,
          stages,
          evaluator,
          results,
          table,
          tableAt);
    } catch (RuntimeException | Error e) { // a lookup missing or over the memory limit, say
      if (table != null) {
        table.close(); // no chain holds it yet
      }
      throw e;
    }
  }

  private static TimeOrderedChain of(
      TimeOrderedShape shape,
      List<Command> pipeline,
      Sourcetypes sourcetypes,
      SearchControl control,
      boolean indexedFieldsOnly,
      StageStats stages,
      Evaluator evaluator,
      PageResults results,
      EventTable table,
      int tableAt) {
    int fused = shape.fused();
    int appendAt = shape.appendAt();
    boolean tableInside = table != null && tableAt < pipeline.size() - 1;
    EventListings listings =
        EventListings.of(shape, sourcetypes, indexedFieldsOnly, control, evaluator);
    EventListing listing =
        shape.listing()
            ? listings.listing(
                shape.everyField(),
                shape.listed(),
                table != null && !tableInside
                    ? EventListing.UNLIMITED
                    : EventListing.roomOf(results))
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
            ? listings
                .listing(false, shape.listed().stagesBefore(tableAt), EventListing.UNLIMITED)
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
            ? new PluginOverEvents(pipeline, listedAt, shape.listed(), listings, results)
            : null;
    RenameOverEvents overRename =
        listedAt >= 0
                && fused == 0
                && overPlugin == null
                && !shape.wordsOverEveryField()
                && RenameOverEvents.at(pipeline) == listedAt
            ? new RenameOverEvents(pipeline, listedAt, shape.listed(), listings, results)
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
      everyField = listings.batches(true, shape.listed()); // the commands after it: a head too
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
      chain.thenWriting(new ListingTee(tableListing, table::add));
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
    // the extraction reads the events' own _raw and sourcetype where a command changes them
    boolean eventText =
        listing != null
                && (shape.listed().changesEventText()
                    || TimeOrderedShape.ownText(pipeline)
                    || appendAt >= 0) // an event's text marks it apart from the subsearch's rows
            || overPlugin != null // the plugin commands' batches carry it (PluginOverEvents)
            || everyField != null && shape.listed().changesEventText()
            || overRename != null && RenameOverEvents.before(pipeline, listedAt).changesEventText();
    return new TimeOrderedChain(
        stagesOnPages,
        eventText,
        listing != null || everyField != null || overPlugin != null || overRename != null,
        table,
        tableAt,
        stages);
  }

  /** The stages, from the scan's pages into the answer. */
  PageReduce stages() {
    return reduce;
  }

  /**
   * Whether the source's pages carry each event's own {@code _raw} and {@code sourcetype} ({@link
   * ListingColumns#withEventText}): where a command changes them, the extraction reads the events'
   * own.
   */
  boolean eventText() {
    return eventText;
  }

  /** Whether the source's pages carry every field an event has ({@link EventPages#listing}). */
  boolean listingPages() {
    return listingPages;
  }

  /**
   * The scan is over and the chain ran (an {@code outputlookup} inside the listing took the rows
   * its own listing held as the chain finished, {@link ListingTee}): a table is written (timed as
   * its stage).
   */
  void finish() {
    if (table != null) {
      long started = System.nanoTime();
      table.finish();
      stages.timed(tableAt, System.nanoTime() - started);
    }
  }

  /** Releases what the stages (a table's listing among them) and the table hold. */
  void close() {
    try {
      reduce.close();
    } finally {
      if (table != null) {
        table.close();
      }
    }
  }

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
      PageResults results) {
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
}
