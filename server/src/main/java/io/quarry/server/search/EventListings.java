package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.exec.Evaluator;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Makes the {@link EventListing}s of one search's chain (time-ordered: {@link TimeOrderedChain},
 * {@link PluginOverEvents}, {@link RenameOverEvents}; a batch slice's every-field listing: {@link
 * PageBatch}): over the fields its source reads, its sourcetypes, extracting or not, its control,
 * each listing's rows counted in the search's memory ({@link EventListing#STAGE}). A listing whose
 * pages go on to other commands ({@link #batches}: a plugin command's batches, a wildcard rename's,
 * the every-field pages) makes pages of at most {@code batchRows} rows — the smallest {@code head}
 * of the search when that is below the engine's page size ({@link TimeOrderedShape#pageSize}, as
 * the source's pages) —, so that a listing under {@code head 5} holds five rows, not a page, and
 * the scan stops once the head is full; the answer's listing pages the answer as the engine's page
 * size says.
 *
 * @param read the fields the source read for the commands (their columns hold every event's value)
 * @param extract false when nothing is extracted from an event's text ({@code tstats}, indexed
 *     fields only)
 * @param batchRows rows per page of a listing whose pages go on to other commands
 */
record EventListings(
    Set<String> read,
    Sourcetypes sourcetypes,
    boolean extract,
    SearchControl control,
    Evaluator evaluator,
    int batchRows) {
  EventListings {
    read = Set.copyOf(read);
    requireNonNull(sourcetypes, "sourcetypes is null");
    requireNonNull(control, "control is null");
    requireNonNull(evaluator, "evaluator is null");
    if (batchRows < 1) {
      throw new IllegalArgumentException("batchRows must be positive: " + batchRows);
    }
  }

  /** The listings of a search in {@code shape}: batches no larger than its smallest head. */
  static EventListings of(
      TimeOrderedShape shape,
      Sourcetypes sourcetypes,
      boolean indexedFieldsOnly,
      SearchControl control,
      Evaluator evaluator) {
    return new EventListings(
        Set.copyOf(shape.sourceFields()),
        sourcetypes,
        !indexedFieldsOnly,
        control,
        evaluator,
        shape.pageSize());
  }

  /**
   * A listing of every field of its events when {@code everyField}, {@code listed} (the commands'
   * changes) laid over each, as many rows as {@code room} says ({@link EventListing#UNLIMITED}, or
   * an answer's {@link EventListing#roomOf}), pages of the engine's size.
   */
  EventListing listing(boolean everyField, ListedFields listed, LongSupplier room) {
    return listing(everyField, listed, room, SearchService.pageSize());
  }

  /**
   * A listing as {@link #listing} whose pages go on to other commands (no row limit of its own),
   * pages of {@code batchRows} rows.
   */
  EventListing batches(boolean everyField, ListedFields listed) {
    return listing(everyField, listed, EventListing.UNLIMITED, batchRows);
  }

  /**
   * The listing making the answer's pages from rows that carry their listed names ({@link
   * EventListing#fromListedNames}: the rows a plugin command or a wildcard rename left), {@code
   * listed} (the changes of the commands after those) replayed over them. Where the search asks
   * every field of its events ({@link SearchControl#everyEventField}: {@code adhoc_search_level}
   * {@code smart} or {@code verbose}), each row lists every field it has instead — its {@link
   * ListingColumns#DISCOVERED_NAMES}, which the plugin commands' overlay ({@link OverlayNames}) and
   * a wildcard rename ({@link RenameOverEvents#listedNames}) keep as they keep its listed names
   * ({@link EventListing#fromDiscoveredNames}).
   */
  EventListing answer(ListedFields listed, PageResults results) {
    EventListing answer = listing(false, listed, EventListing.roomOf(results));
    return control.everyEventFieldAsked() ? answer.fromDiscoveredNames() : answer.fromListedNames();
  }

  private EventListing listing(
      boolean everyField, ListedFields listed, LongSupplier room, int pageSize) {
    return new EventListing(
        read,
        sourcetypes,
        extract,
        everyField,
        listed,
        control,
        evaluator.memory(EventListing.STAGE),
        room,
        pageSize);
  }
}
