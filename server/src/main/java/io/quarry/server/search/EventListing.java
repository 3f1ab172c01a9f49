package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.EventFields;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.exec.MemoryTracker;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The answer of a plain event listing on pages ({@code index=web status=404}, {@code … | where … |
 * sort … | head 20}): the events laid out as pages of the fields each lists, without making a row.
 * Row by row in arrival order, {@code pageSize} rows a page (the last one shorter; none past the
 * answer's row limit), each page with the columns its events have — the default fields in {@link
 * #DEFAULT_ORDER}, then the index-time fields in the order the page's events first name them — and
 * each column typed over its values as {@code PageBuilder} types them.
 *
 * <p>The page source ({@link EventPages#listing}) carries, besides the fields the commands read,
 * every default field, every index-time field an event of its page has, and per event the names of
 * its index-time fields in the event's own order ({@link ListingColumns#FIELD_NAMES}, a column no
 * command reads); the commands after the source (filters, {@code sort}, {@code head}, {@code
 * dedup}) keep or reorder positions and carry those columns along. An index-time field's column
 * holds the event's own values. A plain listing (Splunk's fast mode) shows on each row only the
 * fields that row lists, whatever other rows share its page: where a row lacks a field another row
 * of the page has, its cell is empty — a field the source read for a command (in {@code read}) too,
 * whose column holds every event's search-time value —, except a field a {@code rex} sets, which an
 * event with a value of its own lists (extracted here from the row's {@code _raw}); so too over
 * rows that carry their listed names ({@link #fromListedNames}) and among an {@code append}'s rows
 * ({@link #withOtherRows}). The every-field listings ({@code everyField}) ask a row's extraction
 * for any field its page has (key=value, JSON, the sourcetype's extraction). This class holds the
 * rows and pages them, a pull {@link Operator} (a step of a chain, {@link
 * io.quarry.ql.exec.ReduceChain#then}, or its end before the answer): it takes rows while it holds
 * less than a page, hands a page per {@code getOutput}, and once the input is over the rows still
 * held; closed, it drops what it holds and reports its extraction time, once. {@link ListingLayout}
 * lays out each page.
 */
final class EventListing implements Operator {
  /** An event's default fields, in the order an event listing shows them. */
  static final List<String> DEFAULT_ORDER =
      List.of(
          EventFields.TIME,
          EventFields.RAW,
          EventFields.HOST,
          EventFields.SOURCE,
          EventFields.SOURCETYPE,
          EventFields.INDEX);

  /** What a memory limit names when the rows it holds pass it. */
  static final String STAGE = "event listing";

  private final ListingLayout layout;
  private final SearchControl control;
  private final LongSupplier room; // rows the answer still takes
  private final int pageSize;
  private final HeldRows held = new HeldRows();
  private final MemoryTracker memory;
  private boolean finishing;
  private boolean closed;

  /**
   * @param read the fields the source read for the commands (their columns hold every event's
   *     value: a null is the event's own)
   * @param extract false when nothing is extracted from an event's text ({@code tstats})
   * @param everyField whether a page has every field of its events, search-time extracted ones
   *     included, as a command asking for every field reads them (a subsearch's events, the batches
   *     a plugin command such as {@code fillnull} takes, a wildcard {@code table}): per row its
   *     default and index-time fields, then the fields its sourcetype, JSON or key=value extraction
   *     finds
   * @param listed the changes of the row-local commands after the listing ({@code eval}, {@code
   *     fields -} …) laid over each event ({@link ListedFields}; empty for none)
   * @param memory where the rows it holds count ({@link io.quarry.ql.exec.Evaluator#memory})
   * @param room how many rows the answer still takes (the last page is cut to it; none once it is
   *     0): {@link #roomOf} an answer's, or {@link #UNLIMITED}
   */
  EventListing(
      Set<String> read,
      Sourcetypes sourcetypes,
      boolean extract,
      boolean everyField,
      ListedFields listed,
      SearchControl control,
      MemoryTracker memory,
      LongSupplier room,
      int pageSize) {
    this.layout = new ListingLayout(read, sourcetypes, extract, everyField, listed);
    this.control = requireNonNull(control, "control is null");
    this.memory = requireNonNull(memory, "memory is null");
    this.room = requireNonNull(room, "room is null");
    this.pageSize = pageSize;
  }

  /** No row limit: a listing whose pages go on to other steps (batches, a table). */
  static final LongSupplier UNLIMITED = () -> Long.MAX_VALUE;

  /** The rows {@code results} still takes. */
  static LongSupplier roomOf(PageResults results) {
    return () -> results.maxRows() - results.collector().rows();
  }

  /** Takes rows while it holds less than its next page. */
  @Override
  public boolean needsInput() {
    return !finishing && !closed && !full() && held.rows() < rowsOfNextPage();
  }

  /**
   * Holds the commands' rows, counted in the search's memory first (an empty page goes nowhere;
   * none once the answer is full).
   */
  @Override
  public void addInput(Page page) {
    if (finishing) {
      throw new IllegalStateException("addInput after finish");
    }
    if (!closed && !full() && page.positionCount() > 0) {
      memory.add(MemoryTracker.ROW_BYTES * page.positionCount()); // throws over the limit
      held.add(page);
    }
  }

  /**
   * The next page laid out: a whole page's rows once held (or the rows the answer has room for),
   * the rest once the input is over; else null.
   */
  @Override
  public Page getOutput() {
    if (closed || full() || held.rows() == 0) {
      return null;
    }
    int rows = rowsOfNextPage();
    if (held.rows() < rows && !finishing) {
      return null;
    }
    HeldRows.Cut cut = held.take(Math.min(rows, held.rows()));
    memory.add(-MemoryTracker.ROW_BYTES * cut.count()); // no longer held
    return layout.page(cut);
  }

  /** The commands' output is over: the rows still held go out as they are pulled. */
  @Override
  public void finish() {
    finishing = true;
  }

  /** Once the input is over and every row went out, or the answer is full. */
  @Override
  public boolean isFinished() {
    return closed || full() || finishing && held.rows() == 0;
  }

  /**
   * Drops the rows still held, gives back what they reserved and tells the search the time spent
   * extracting (once).
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    held.clear();
    memory.release();
    control.extracted(layout.extracted());
  }

  private boolean full() {
    return room.getAsLong() <= 0;
  }

  /** The rows of the next page: a whole page, or what room the answer has left. */
  private int rowsOfNextPage() {
    return (int) Math.max(1, Math.min(pageSize, room.getAsLong()));
  }

  /**
   * This listing over pages whose {@link ListingColumns#FIELD_NAMES} lists, per row, every field it
   * has in order (default fields included) and {@link ListingColumns#CLEARED} those it lost — what
   * a plugin command's overlay left ({@link PluginOverEvents}) —, the commands' changes replayed
   * after them.
   */
  EventListing fromListedNames() {
    layout.listedNames = true;
    return this;
  }

  /**
   * This listing's pages with each row's listed fields (as the row lists them: in every-field mode
   * too, without the fields only its extraction finds) and the fields it was left without as last
   * hidden columns ({@link ListingColumns#LISTED_NAMES}, {@link ListingColumns#CLEARED_NAMES}) —
   * and the events' own text where a command changed it ({@link ListingColumns#EVENT_RAW}, {@link
   * ListingColumns#EVENT_SOURCETYPE}) —, for the {@code outputlookup} ending it ({@link
   * EventTable}), which writes each row with the fields it lists, and for the plugin commands over
   * its rows ({@link PluginOverEvents}).
   */
  EventListing carryingListedNames() {
    layout.carriesListedNames = true;
    return this;
  }

  /**
   * This listing's pages with each row's event's own {@code _raw} and {@code sourcetype} as last
   * hidden columns ({@link ListingColumns#EVENT_RAW}, {@link ListingColumns#EVENT_SOURCETYPE}),
   * what the extraction and a bare word read past the commands its pages go through ({@link
   * PluginOverEvents}).
   */
  EventListing carryingEventText() {
    layout.carriesEventText = true;
    return this;
  }

  /**
   * This listing's pages with each row's every field — those it lists and those only its extraction
   * finds — as a last hidden column ({@link ListingColumns#DISCOVERED_NAMES}), next to {@link
   * #carryingListedNames}'s: the rows a plugin command reading every field takes after another's
   * ({@link PluginOverEvents}).
   */
  EventListing carryingDiscoveredNames() {
    layout.carriesDiscoveredNames = true;
    return this;
  }

  /**
   * This listing {@link #fromListedNames} laying out each row's every field as its {@link
   * ListingColumns#DISCOVERED_NAMES} lists them (its {@link ListingColumns#FIELD_NAMES} still those
   * it lists), the commands' changes replayed over them: the batches of events, changes laid over,
   * that a plugin command reading every field takes ({@link PluginOverEvents}).
   */
  EventListing fromDiscoveredNames() {
    layout.listedNames = true;
    layout.discoveredNames = true;
    return this;
  }

  /**
   * This listing over pages that also hold rows that are no events — an {@code append}'s subsearch
   * rows among the events, after commands that keep rows as they come —, each known by a null in
   * {@link ListingColumns#EVENT_RAW}, which every event's page carries ({@link
   * ListingColumns#withEventText}): such a row lists the fields it holds a value in, in its page's
   * column order, and has no value besides (nothing is extracted for it); an event of the same page
   * lists what it would list without them (fast mode: never a search-time value because an appended
   * row holds that field, so what it lists does not depend on where pages part; before session 39
   * it was asked for the fields those rows name). {@code changes}: those of the commands after the
   * {@code append} ({@link ListedFields}, numbered by their stages), laid over such a row's fields
   * as over an event's.
   */
  EventListing withOtherRows(ListedFields changes) {
    layout.otherRows = true;
    layout.otherChanges = requireNonNull(changes, "changes is null");
    return this;
  }

  /** Whether {@code page}'s column {@code field} holds a value at {@code position}. */
  static boolean hasValue(Page page, String field, int position) {
    int column = page.schema().indexOf(field);
    return column >= 0 && !page.block(column).isNull(position);
  }
}
