package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.EventFields;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.exec.PageBuilder;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

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
 * holds the event's own values; where a page's row lacks a field that another row of the page has,
 * its cell is the event's search-time value of it (key=value, JSON, the sourcetype's extraction),
 * extracted here from the row's {@code _raw} — unless the source already read the field for a
 * command (the fields in {@code read}), whose column holds every event's value.
 */
final class EventListing {
  /** An event's default fields, in the order an event listing shows them. */
  static final List<String> DEFAULT_ORDER =
      List.of(
          EventFields.TIME,
          EventFields.RAW,
          EventFields.HOST,
          EventFields.SOURCE,
          EventFields.SOURCETYPE,
          EventFields.INDEX);

  private final ListedFields listed;
  private final RowExtractions extractions;
  private final SearchControl control;
  private final Predicate<Page> out; // false once it takes no more pages
  private final LongSupplier room; // rows the answer still takes
  private final boolean everyField;
  private final int pageSize;
  private final HeldRows held = new HeldRows();
  private boolean full;
  private boolean listedNames; // FIELD_NAMES lists each row's every field, CLEARED those it lost
  private boolean carriesListedNames; // its pages keep LISTED_NAMES, CLEARED_NAMES (hidden)
  private boolean carriesEventText; // its pages keep EVENT_RAW, EVENT_SOURCETYPE (hidden)
  private boolean discoveredNames; // lays out each row's DISCOVERED_NAMES, not its FIELD_NAMES
  private boolean carriesDiscoveredNames; // its pages keep DISCOVERED_NAMES (hidden)
  private boolean otherRows; // a position without its event's text is no event (withOtherRows)
  private ListedFields otherChanges = ListedFields.of(List.of()); // laid over those (withOtherRows)

  /**
   * @param read the fields the source read for the commands (their columns hold every event's
   *     value: a null is the event's own)
   * @param extract false when nothing is extracted from an event's text ({@code tstats})
   */
  EventListing(
      Set<String> read,
      Sourcetypes sourcetypes,
      boolean extract,
      SearchControl control,
      PageBatch.Results results,
      int pageSize) {
    this(
        read,
        sourcetypes,
        extract,
        false,
        control,
        results::add,
        () -> results.maxRows() - results.collector().rows(),
        pageSize);
  }

  /**
   * @param everyField whether a page has every field of its events, search-time extracted ones
   *     included, as a command asking for every field reads them (a subsearch's events, the batches
   *     a plugin command such as {@code fillnull} takes, a wildcard {@code table}): per row its
   *     default and index-time fields, then the fields its sourcetype, JSON or key=value extraction
   *     finds
   * @param out takes the pages, false once it takes no more
   * @param room how many rows the answer still takes (the last page is cut to it)
   */
  EventListing(
      Set<String> read,
      Sourcetypes sourcetypes,
      boolean extract,
      boolean everyField,
      SearchControl control,
      Predicate<Page> out,
      LongSupplier room,
      int pageSize) {
    this(
        read,
        sourcetypes,
        extract,
        everyField,
        ListedFields.of(List.of()),
        control,
        out,
        room,
        pageSize);
  }

  /**
   * As above, the events' fields changed by the row-local commands after the listing ({@code eval},
   * {@code fields -}) laid over each event.
   */
  EventListing(
      Set<String> read,
      Sourcetypes sourcetypes,
      boolean extract,
      boolean everyField,
      ListedFields listed,
      SearchControl control,
      Predicate<Page> out,
      LongSupplier room,
      int pageSize) {
    this.listed = requireNonNull(listed, "listed is null");
    this.extractions = new RowExtractions(read, extract, sourcetypes);
    this.everyField = everyField && extract;
    this.control = requireNonNull(control, "control is null");
    this.out = requireNonNull(out, "out is null");
    this.room = requireNonNull(room, "room is null");
    this.pageSize = pageSize;
  }

  /** Takes the commands' output; false once the answer is full. */
  boolean add(Page page) {
    if (full || page.positionCount() == 0) {
      return !full;
    }
    held.add(page);
    while (!full && held.rows() >= rowsOfNextPage()) {
      handOn(rowsOfNextPage());
    }
    return !full;
  }

  /** The commands' output is over: the rows still held go out. */
  void finish() {
    while (!full && held.rows() > 0) {
      handOn(Math.min(held.rows(), rowsOfNextPage()));
    }
    held.clear();
    control.extracted(extractions.took());
  }

  /** The rows of the next page: a whole page, or what room the answer has left. */
  private int rowsOfNextPage() {
    return (int) Math.max(1, Math.min(pageSize, room.getAsLong()));
  }

  /** Hands on the first {@code count} held rows as one page. */
  private void handOn(int count) {
    full = !out.test(page(held.take(count)));
  }

  /**
   * The rows {@code ranges} of {@code pages} as one page of the fields they list (class comment).
   */
  private Page page(HeldRows.Cut cut) {
    List<Page> pages = cut.pages();
    List<int[]> ranges = cut.ranges();
    int count = cut.count();
    extractions.forget();
    // each row lists the default fields first, unless its commands removed or renamed one
    Set<String> names =
        new LinkedHashSet<>(
            listed.isEmpty() && !listedNames && !otherRows ? DEFAULT_ORDER : List.of());
    Set<Long> others = new HashSet<>(); // by (page, position): rows that are no events
    Map<Long, Set<String>> cleared =
        new HashMap<>(); // by (page, position): fields it no longer has
    RowNameColumns rowNames = new RowNameColumns(carriesListedNames, carriesDiscoveredNames, count);
    for (int i = 0; i < pages.size(); i++) {
      Page page = pages.get(i);
      int column = page.schema().indexOf(ListingColumns.FIELD_NAMES);
      Block block = column < 0 ? null : page.block(column);
      Block layout = discoveredNames ? page.block(ListingColumns.DISCOVERED_NAMES) : block;
      for (int p = ranges.get(i)[0]; p < ranges.get(i)[1]; p++) {
        if (otherRows && OtherRows.isOther(page, p)) { // its fields as it holds them
          List<String> held = OtherRows.heldNames(page, p, otherChanges);
          names.addAll(held);
          others.add(HeldRows.row(i, p));
          if (rowNames.listsRows()) {
            rowNames.listed(held);
          }
          continue;
        }
        if (otherRows && replaysNone()) {
          names.addAll(DEFAULT_ORDER); // an event lists them first
        }
        List<String> own =
            replaysNone() ? null : new ArrayList<>(listedNames ? List.of() : DEFAULT_ORDER);
        if (layout != null) {
          for (Object name : layout.getValues(p)) {
            if (own == null) {
              names.add((String) name);
            } else if (!own.contains(name)) {
              own.add((String) name);
            }
          }
        }
        if (everyField) { // then the names its extraction finds
          List<String> found = extractions.names(page, i, p);
          if (own == null) {
            names.addAll(found);
          } else {
            found.stream().filter(name -> !own.contains(name)).forEach(own::add);
          }
        }
        if (own != null) { // then the commands' changes laid over the event
          int position = p;
          Set<String> gone = new HashSet<>();
          Block lost = listedNames ? page.block(ListingColumns.CLEARED) : null;
          if (lost != null) {
            lost.getValues(p).forEach(name -> gone.add((String) name));
          }
          listed.apply(own, field -> hasValue(page, field, position), gone);
          if (!gone.isEmpty()) {
            cleared.put(HeldRows.row(i, p), gone);
          }
          names.addAll(own);
          if (!everyField) { // a field rex sets elsewhere: this event's own value shows too
            for (String field : listed.extracted()) {
              if (!names.contains(field)
                  && !gone.contains(field)
                  && extractions.ownValue(page, i, p, field)) {
                names.add(field);
              }
            }
          }
        }
        if (rowNames.listsRows()) { // as the row lists them: without extraction
          List<String> fieldNames =
              everyField || discoveredNames
                  ? listedWithoutExtraction(page, block, p)
                  : own != null ? own : ownNames(page, block, p, i);
          rowNames.listed(fieldNames);
          if (rowNames.discoversRows()) { // every field, a renamed row's too
            rowNames.discovered(own != null ? own : ownNames(page, block, p, i));
          }
        }
      }
    }
    boolean whole =
        pages.size() == 1
            && ranges.get(0)[0] == 0
            && ranges.get(0)[1] == pages.get(0).positionCount();
    List<Schema.Column> columns = new ArrayList<>(names.size());
    List<Block> blocks = new ArrayList<>(names.size());
    for (String name : names) {
      Block block = whole && !changes(name) ? wholeColumn(pages.get(0), name) : null;
      if (block == null) {
        block = PageBuilder.column(name, extractions.cells(name, cut, cleared, others));
      }
      columns.add(new Schema.Column(name, block.dataType()));
      blocks.add(block);
    }
    rowNames.addTo(columns, blocks, cut, cleared);
    Page laid = new Page(new Schema(columns), blocks, count);
    // the events' own text where asked for, or where a command changed it and the rows carry their
    // listed names (an outputlookup's, a wildcard rename's batches)
    return carriesEventText
            || carriesListedNames && pages.getFirst().block(ListingColumns.EVENT_RAW) != null
        ? ListingColumns.withEventText(laid, pages, ranges)
        : laid;
  }

  /**
   * The fields a row lists without extraction (a row's {@code fieldNames}, where an every-field
   * page has its discoverable ones): the default fields, its index-time ones ({@code names}), the
   * commands' changes laid over them.
   */
  private List<String> listedWithoutExtraction(Page page, Block names, int position) {
    List<String> own = new ArrayList<>(listedNames ? List.of() : DEFAULT_ORDER);
    if (names != null) {
      for (Object name : names.getValues(position)) {
        if (!own.contains(name)) {
          own.add((String) name);
        }
      }
    }
    if (!replaysNone()) {
      listed.apply(own, field -> hasValue(page, field, position), new HashSet<>());
    }
    return own;
  }

  /**
   * The fields a row lists where no command changes them: the default fields, its index-time ones
   * ({@code names}, the page's {@link ListingColumns#FIELD_NAMES}), then in every-field mode those
   * its extraction finds.
   */
  private List<String> ownNames(Page page, Block names, int position, int i) {
    List<String> own = new ArrayList<>(DEFAULT_ORDER);
    if (names != null) {
      names.getValues(position).forEach(name -> own.add((String) name));
    }
    if (everyField) {
      extractions.names(page, i, position).stream()
          .filter(name -> !own.contains(name))
          .forEach(own::add);
    }
    return own;
  }

  /**
   * This listing over pages whose {@link ListingColumns#FIELD_NAMES} lists, per row, every field it
   * has in order (default fields included) and {@link ListingColumns#CLEARED} those it lost — what
   * a plugin command's overlay left ({@link PluginOverEvents}) —, the commands' changes replayed
   * after them.
   */
  EventListing fromListedNames() {
    this.listedNames = true;
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
    this.carriesListedNames = true;
    return this;
  }

  /**
   * This listing's pages with each row's event's own {@code _raw} and {@code sourcetype} as last
   * hidden columns ({@link ListingColumns#EVENT_RAW}, {@link ListingColumns#EVENT_SOURCETYPE}),
   * what the extraction and a bare word read past the commands its pages go through ({@link
   * PluginOverEvents}).
   */
  EventListing carryingEventText() {
    this.carriesEventText = true;
    return this;
  }

  /**
   * This listing's pages with each row's every field — those it lists and those only its extraction
   * finds — as a last hidden column ({@link ListingColumns#DISCOVERED_NAMES}), next to {@link
   * #carryingListedNames}'s: the rows a plugin command reading every field takes after another's
   * ({@link PluginOverEvents}).
   */
  EventListing carryingDiscoveredNames() {
    this.carriesDiscoveredNames = true;
    return this;
  }

  /**
   * This listing {@link #fromListedNames} laying out each row's every field as its {@link
   * ListingColumns#DISCOVERED_NAMES} lists them (its {@link ListingColumns#FIELD_NAMES} still those
   * it lists), the commands' changes replayed over them: the batches of events, changes laid over,
   * that a plugin command reading every field takes ({@link PluginOverEvents}).
   */
  EventListing fromDiscoveredNames() {
    this.listedNames = true;
    this.discoveredNames = true;
    return this;
  }

  /**
   * This listing over pages that also hold rows that are no events — an {@code append}'s subsearch
   * rows among the events, after commands that keep rows as they come —, each known by a null in
   * {@link ListingColumns#EVENT_RAW}, which every event's page carries ({@link
   * ListingColumns#withEventText}): such a row lists the fields it holds a value in, in its page's
   * column order, and has no value besides (nothing is extracted for it); an event of the same page
   * is asked for the fields those rows name (its search-time values). {@code changes}: those of the
   * commands after the {@code append} ({@link ListedFields}, numbered by their stages), laid over
   * such a row's fields as over an event's.
   */
  EventListing withOtherRows(ListedFields changes) {
    this.otherRows = true;
    this.otherChanges = requireNonNull(changes, "changes is null");
    return this;
  }

  /** Whether no command changes a row's fields: the rows list the events' own. */
  private boolean replaysNone() {
    return listed.isEmpty() && !listedNames;
  }

  /** Whether a command sets or removes {@code name}: its column is not the events' own. */
  private boolean changes(String name) {
    return listedNames || listed.changes(name);
  }

  /**
   * A whole page's column as it stands, where no row of it needs extracting; else null. A default
   * field never does, nor a field the commands read.
   */
  private Block wholeColumn(Page page, String name) {
    int column = page.schema().indexOf(name);
    if (column < 0) {
      return null;
    }
    Block block = page.block(column);
    if (!extractions.extracts(name)) {
      return block;
    }
    for (int p = 0; p < block.positionCount(); p++) {
      if (block.isNull(p)) {
        return null;
      }
    }
    return block;
  }

  /** Whether {@code page}'s column {@code field} holds a value at {@code position}. */
  static boolean hasValue(Page page, String field, int position) {
    int column = page.schema().indexOf(field);
    return column >= 0 && !page.block(column).isNull(position);
  }
}
