package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

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

/**
 * How an {@link EventListing} lays out the rows it hands on as one page: the fields each row lists
 * (the default fields, its index-time ones, in every-field mode those its extraction finds, the
 * commands' changes replayed over them: {@link ListedFields}), the page's columns their union in
 * first-named order, and the hidden columns the listing's modes ask for ({@link RowNameColumns},
 * {@link ListingColumns#withEventText}). A row has a value only in the fields it lists (a {@code
 * rex} output where the event has one of its own included), never one another row of its page made
 * a column of (fast mode; over rows that carry their listed names too, and among an {@code
 * append}'s rows: an event there lists what it would list alone, an appended row what it holds); in
 * every-field mode a row's missing cell is its search-time value unless its commands removed the
 * field. The modes are {@link EventListing}'s (it sets them here).
 */
final class ListingLayout {
  private final ListedFields listed;
  private final RowExtractions extractions;
  private final boolean everyField;
  boolean listedNames; // FIELD_NAMES lists each row's every field, CLEARED those it lost
  boolean carriesListedNames; // its pages keep LISTED_NAMES, CLEARED_NAMES (hidden)
  boolean carriesEventText; // its pages keep EVENT_RAW, EVENT_SOURCETYPE (hidden)
  boolean discoveredNames; // lays out each row's DISCOVERED_NAMES, not its FIELD_NAMES
  boolean carriesDiscoveredNames; // its pages keep DISCOVERED_NAMES (hidden)
  boolean otherRows; // a position without its event's text is no event (withOtherRows)
  ListedFields otherChanges = ListedFields.of(List.of()); // laid over those (withOtherRows)

  /**
   * @param read the fields the source read for the commands (their columns hold every event's
   *     value: a null is the event's own)
   * @param extract false when nothing is extracted from an event's text ({@code tstats})
   * @param everyField whether a page has every field of its events, search-time extracted ones
   *     included ({@link EventListing})
   */
  ListingLayout(
      Set<String> read,
      Sourcetypes sourcetypes,
      boolean extract,
      boolean everyField,
      ListedFields listed) {
    this.listed = requireNonNull(listed, "listed is null");
    this.extractions = new RowExtractions(read, extract, sourcetypes);
    this.everyField = everyField && extract;
  }

  /** The nanoseconds spent extracting since the last call. */
  long extracted() {
    return extractions.took();
  }

  /**
   * The rows {@code ranges} of {@code pages} as one page of the fields they list (class comment).
   */
  Page page(HeldRows.Cut cut) {
    List<Page> pages = cut.pages();
    List<int[]> ranges = cut.ranges();
    int count = cut.count();
    extractions.forget();
    // each row lists the default fields first, unless its commands removed or renamed one
    Set<String> names =
        new LinkedHashSet<>(
            listed.isEmpty() && !listedNames && !otherRows
                ? EventListing.DEFAULT_ORDER
                : List.of());
    Set<Long> others = new HashSet<>(); // by (page, position): rows that are no events
    Map<Long, Set<String>> cleared =
        new HashMap<>(); // by (page, position): fields it no longer has
    RowNameColumns rowNames = new RowNameColumns(carriesListedNames, carriesDiscoveredNames, count);
    // by (page, position): an event's fields once a fields of names made its list final
    Map<Long, List<String>> finalNames = listed.keeps() ? new HashMap<>() : null;
    // fast mode (not a listing of every field): a row shows the fields it lists and no other —
    // never a value another row of its page made a column of, an append's row included
    boolean fast = !everyField && !discoveredNames;
    // by (page, position): the fields each row lists, where a column may hold a value a row does
    // not list (a field the source read for a command; a carried row's own search-time value; an
    // appended row's field), its listed search-time values extracted
    Map<Long, List<String>> rowsList =
        fast && (listedNames || otherRows || extractions.readsBeyondDefaults())
            ? new HashMap<>()
            : null;
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
          names.addAll(EventListing.DEFAULT_ORDER); // an event lists them first
        }
        List<String> own =
            replaysNone()
                ? null
                : new ArrayList<>(listedNames ? List.of() : EventListing.DEFAULT_ORDER);
        if (layout != null) {
          for (Object name : layout.getValues(p)) {
            if (own == null) {
              names.add((String) name);
            } else if (!own.contains(name)) {
              own.add((String) name);
            }
          }
        }
        if (rowsList != null) { // own: as the commands' changes are laid over it below
          rowsList.put(HeldRows.row(i, p), own != null ? own : ownNames(page, block, p, i));
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
          listed.apply(own, field -> EventListing.hasValue(page, field, position), gone);
          if (!gone.isEmpty() || finalNames != null) {
            cleared.put(HeldRows.row(i, p), gone);
          }
          if (finalNames != null) {
            finalNames.put(HeldRows.row(i, p), own);
          }
          names.addAll(own);
          if (!everyField && finalNames == null) {
            // a field rex sets elsewhere: this event's own value shows too (not past a fields of
            // names, which left the event none)
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
    if (finalNames != null) {
      // a field another row lists (a subsearch's row, an event a later command set it on) that a
      // fields of names left this event without: none, not even the event's own
      finalNames.forEach(
          (row, own) ->
              names.stream().filter(name -> !own.contains(name)).forEach(cleared.get(row)::add));
    }
    boolean whole =
        pages.size() == 1
            && ranges.get(0)[0] == 0
            && ranges.get(0)[1] == pages.get(0).positionCount();
    List<Schema.Column> columns = new ArrayList<>(names.size());
    List<Block> blocks = new ArrayList<>(names.size());
    for (String name : names) {
      // fast mode extracts a row's missing value only where the row lists the field, or for a
      // field a rex sets (the event's own value where the rex left it none), and shows a column's
      // value only on the rows that list the field
      boolean rex = listed.extracted().contains(name);
      boolean extract = !fast || rex || rowsList != null;
      Set<Long> unlisted = rowsList != null && !rex ? unlisted(name, rowsList, others) : Set.of();
      Block block =
          whole && unlisted.isEmpty() && !changes(name)
              ? wholeColumn(pages.get(0), name, extract)
              : null;
      if (block == null) {
        block =
            PageBuilder.column(
                name, extractions.cells(name, cut, cleared, others, extract, unlisted));
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
    List<String> own = new ArrayList<>(listedNames ? List.of() : EventListing.DEFAULT_ORDER);
    if (names != null) {
      for (Object name : names.getValues(position)) {
        if (!own.contains(name)) {
          own.add((String) name);
        }
      }
    }
    if (!replaysNone()) {
      listed.apply(own, field -> EventListing.hasValue(page, field, position), new HashSet<>());
    }
    return own;
  }

  /**
   * The fields a row lists where no command changes them: the default fields, its index-time ones
   * ({@code names}, the page's {@link ListingColumns#FIELD_NAMES}), then in every-field mode those
   * its extraction finds.
   */
  private List<String> ownNames(Page page, Block names, int position, int i) {
    List<String> own = new ArrayList<>(EventListing.DEFAULT_ORDER);
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

  /** Whether no command changes a row's fields: the rows list the events' own. */
  private boolean replaysNone() {
    return listed.isEmpty() && !listedNames;
  }

  /** Whether a command sets or removes {@code name}: its column is not the events' own. */
  private boolean changes(String name) {
    return listedNames || listed.changes(name);
  }

  /**
   * The rows of the page being laid out (each an event's, not among {@code others}) that do not
   * list {@code name}, by {@link HeldRows#row}: where the field's column holds a value the row does
   * not list (a search-time value the source read for a command, or a carried row's own), the row
   * shows none.
   */
  private static Set<Long> unlisted(
      String name, Map<Long, List<String>> rowsList, Set<Long> others) {
    Set<Long> unlisted = new HashSet<>();
    rowsList.forEach(
        (row, own) -> {
          if (!others.contains(row) && !own.contains(name)) {
            unlisted.add(row);
          }
        });
    return unlisted;
  }

  /**
   * A whole page's column as it stands, where no row of it needs extracting ({@code extract} false:
   * none does); else null. A default field never does, nor a field the commands read.
   */
  private Block wholeColumn(Page page, String name, boolean extract) {
    int column = page.schema().indexOf(name);
    if (column < 0) {
      return null;
    }
    Block block = page.block(column);
    if (!extract || !extractions.extracts(name)) {
      return block;
    }
    for (int p = 0; p < block.positionCount(); p++) {
      if (block.isNull(p)) {
        return null;
      }
    }
    return block;
  }
}
