package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.EventFields;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.exec.PageBuilder;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.ArrayList;
import java.util.HashMap;
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

  private final Set<String> read;
  private final ListedFields listed;
  private final Sourcetypes sourcetypes;
  private final boolean extract;
  private final ExtractionClock clock = new ExtractionClock();
  private final SearchControl control;
  private final Predicate<Page> out; // false once it takes no more pages
  private final LongSupplier room; // rows the answer still takes
  private final boolean everyField;
  private final int pageSize;
  private final List<Page> held = new ArrayList<>();
  private int heldFrom; // the first position of held.get(0) not yet handed on
  private int heldRows; // positions held, from heldFrom on
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
    this.read = Set.copyOf(read);
    this.sourcetypes = requireNonNull(sourcetypes, "sourcetypes is null");
    this.extract = extract;
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
    heldRows += page.positionCount();
    while (!full && heldRows >= rowsOfNextPage()) {
      handOn(rowsOfNextPage());
    }
    return !full;
  }

  /** The commands' output is over: the rows still held go out. */
  void finish() {
    while (!full && heldRows > 0) {
      handOn(Math.min(heldRows, rowsOfNextPage()));
    }
    held.clear();
    control.extracted(clock.take());
  }

  /** The rows of the next page: a whole page, or what room the answer has left. */
  private int rowsOfNextPage() {
    return (int) Math.max(1, Math.min(pageSize, room.getAsLong()));
  }

  /** Hands on the first {@code count} held rows as one page. */
  private void handOn(int count) {
    List<Page> pages = new ArrayList<>();
    List<int[]> ranges = new ArrayList<>(); // [from, to) of each page
    int left = count;
    while (left > 0) {
      Page page = held.getFirst();
      int to = Math.min(page.positionCount(), heldFrom + left);
      pages.add(page);
      ranges.add(new int[] {heldFrom, to});
      left -= to - heldFrom;
      if (to == page.positionCount()) {
        held.removeFirst();
        heldFrom = 0;
      } else {
        heldFrom = to;
      }
    }
    heldRows -= count;
    full = !out.test(page(pages, ranges, count));
  }

  /**
   * The rows {@code ranges} of {@code pages} as one page of the fields they list (class comment).
   */
  private Page page(List<Page> pages, List<int[]> ranges, int count) {
    // each row lists the default fields first, unless its commands removed or renamed one
    Set<String> names =
        new LinkedHashSet<>(
            listed.isEmpty() && !listedNames && !otherRows ? DEFAULT_ORDER : List.of());
    Set<Long> others = new java.util.HashSet<>(); // by (page, position): rows that are no events
    Map<Long, FieldExtractor> extractors = new HashMap<>(); // by (page, position)
    Map<Long, Set<String>> cleared =
        new HashMap<>(); // by (page, position): fields it no longer has
    List<List<String>> listedOfRows = carriesListedNames ? new ArrayList<>(count) : null;
    List<List<String>> discoveredOfRows = carriesDiscoveredNames ? new ArrayList<>(count) : null;
    for (int i = 0; i < pages.size(); i++) {
      Page page = pages.get(i);
      int column = page.schema().indexOf(ListingColumns.FIELD_NAMES);
      Block block = column < 0 ? null : page.block(column);
      Block layout = discoveredNames ? page.block(ListingColumns.DISCOVERED_NAMES) : block;
      for (int p = ranges.get(i)[0]; p < ranges.get(i)[1]; p++) {
        if (otherRows && isOtherRow(page, p)) { // its fields as it holds them
          List<String> held = heldNames(page, p, otherChanges);
          names.addAll(held);
          others.add(((long) i << 32) | p);
          if (listedOfRows != null) {
            listedOfRows.add(held);
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
          FieldExtractor extractor = extractor(extractors, page, i, p);
          List<String> found = clock.time(extractor::names);
          if (own == null) {
            names.addAll(found);
          } else {
            found.stream().filter(name -> !own.contains(name)).forEach(own::add);
          }
        }
        if (own != null) { // then the commands' changes laid over the event
          int position = p;
          Set<String> gone = new java.util.HashSet<>();
          Block lost = listedNames ? page.block(ListingColumns.CLEARED) : null;
          if (lost != null) {
            lost.getValues(p).forEach(name -> gone.add((String) name));
          }
          listed.apply(own, field -> hasValue(page, field, position), gone);
          if (!gone.isEmpty()) {
            cleared.put(((long) i << 32) | p, gone);
          }
          names.addAll(own);
          if (!everyField) { // a field rex sets elsewhere: this event's own value shows too
            for (String field : listed.extracted()) {
              if (!names.contains(field)
                  && !gone.contains(field)
                  && ownValue(extractors, page, i, p, field)) {
                names.add(field);
              }
            }
          }
        }
        if (listedOfRows != null) { // as the row lists them: without extraction
          List<String> fieldNames =
              everyField || discoveredNames
                  ? listedWithoutExtraction(page, block, p)
                  : own != null ? own : ownNames(page, block, p, extractors, i);
          listedOfRows.add(fieldNames);
          if (discoveredOfRows != null) { // every field, a renamed row's too
            discoveredOfRows.add(own != null ? own : ownNames(page, block, p, extractors, i));
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
        block =
            PageBuilder.column(
                name, cells(name, pages, ranges, count, extractors, cleared, others));
      }
      columns.add(new Schema.Column(name, block.dataType()));
      blocks.add(block);
    }
    if (listedOfRows != null) {
      BytesBlock.Builder listedColumn = BytesBlock.builder(count);
      BytesBlock.Builder clearedNames = BytesBlock.builder(count);
      int row = 0;
      for (int i = 0; i < pages.size(); i++) {
        for (int p = ranges.get(i)[0]; p < ranges.get(i)[1]; p++) {
          ListingColumns.appendAll(listedColumn, listedOfRows.get(row++));
          ListingColumns.appendAll(
              clearedNames, cleared.getOrDefault(((long) i << 32) | p, Set.of()));
        }
      }
      for (Map.Entry<String, BytesBlock> hidden :
          List.of(
              Map.entry(ListingColumns.LISTED_NAMES, listedColumn.build()),
              Map.entry(ListingColumns.CLEARED_NAMES, clearedNames.build()))) {
        columns.add(new Schema.Column(hidden.getKey(), hidden.getValue().dataType()));
        blocks.add(hidden.getValue());
      }
      if (pages.get(0).block(ListingColumns.EVENT_RAW) != null) { // a command changed the text
        for (String hidden : List.of(ListingColumns.EVENT_RAW, ListingColumns.EVENT_SOURCETYPE)) {
          Block text = ListingColumns.copied(hidden, pages, ranges, count);
          columns.add(new Schema.Column(hidden, text.dataType()));
          blocks.add(text);
        }
      }
    }
    if (discoveredOfRows != null) {
      BytesBlock.Builder discovered = BytesBlock.builder(count);
      discoveredOfRows.forEach(rowNames -> ListingColumns.appendAll(discovered, rowNames));
      BytesBlock block = discovered.build();
      columns.add(new Schema.Column(ListingColumns.DISCOVERED_NAMES, block.dataType()));
      blocks.add(block);
    }
    Page laid = new Page(new Schema(columns), blocks, count);
    return carriesEventText ? ListingColumns.withEventText(laid, pages, ranges) : laid;
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
      listed.apply(own, field -> hasValue(page, field, position), new java.util.HashSet<>());
    }
    return own;
  }

  /**
   * The fields a row lists where no command changes them: the default fields, its index-time ones
   * ({@code names}, the page's {@link ListingColumns#FIELD_NAMES}), then in every-field mode those
   * its extraction finds.
   */
  private List<String> ownNames(
      Page page, Block names, int position, Map<Long, FieldExtractor> extractors, int i) {
    List<String> own = new ArrayList<>(DEFAULT_ORDER);
    if (names != null) {
      names.getValues(position).forEach(name -> own.add((String) name));
    }
    if (everyField) {
      FieldExtractor extractor = extractor(extractors, page, i, position);
      clock.time(extractor::names).stream().filter(name -> !own.contains(name)).forEach(own::add);
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

  /** Whether position {@code p} is a row that is no event ({@link #withOtherRows}). */
  private static boolean isOtherRow(Page page, int p) {
    Block own = page.block(ListingColumns.EVENT_RAW);
    return own == null || own.isNull(p);
  }

  /**
   * The fields a row that is no event holds a value in: as its own page named them ({@link
   * io.quarry.ql.exec.EventText#OTHER_ROW_FIELDS}), else in its page's column order.
   */
  private static List<String> heldNames(Page page, int p, ListedFields changes) {
    Block own = page.block(io.quarry.ql.exec.EventText.OTHER_ROW_FIELDS);
    if (own != null && !own.isNull(p)) {
      List<String> named = new ArrayList<>();
      own.getValues(p).forEach(name -> named.add((String) name));
      // the later commands' changes laid over them as over an event's (a renamed field in its
      // old name's place, a new one last)
      changes.apply(named, field -> hasValue(page, field, p), new java.util.HashSet<>());
      named.removeIf(name -> !hasValue(page, name, p)); // a later command may have cleared it
      return named;
    }
    List<String> held = new ArrayList<>();
    for (int c = 0; c < page.schema().size(); c++) {
      String name = page.schema().column(c).name();
      if (!name.startsWith("\u0000")
          && !name.equals(io.quarry.ql.exec.PluginOperators.ROW_COLUMN)
          && !page.block(c).isNull(p)) {
        held.add(name);
      }
    }
    return held;
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
    if (DEFAULT_ORDER.contains(name) || read.contains(name) || !extract) {
      return block;
    }
    for (int p = 0; p < block.positionCount(); p++) {
      if (block.isNull(p)) {
        return null;
      }
    }
    return block;
  }

  /** Each row's values of {@code name}: its column's, else extracted from its {@code _raw}. */
  private List<List<Object>> cells(
      String name,
      List<Page> pages,
      List<int[]> ranges,
      int count,
      Map<Long, FieldExtractor> extractors,
      Map<Long, Set<String>> cleared,
      Set<Long> others) {
    boolean extracts = extract && !DEFAULT_ORDER.contains(name) && !read.contains(name);
    List<List<Object>> cells = new ArrayList<>(count);
    for (int i = 0; i < pages.size(); i++) {
      Page page = pages.get(i);
      int column = page.schema().indexOf(name);
      Block block = column < 0 ? null : page.block(column);
      for (int p = ranges.get(i)[0]; p < ranges.get(i)[1]; p++) {
        if (block != null && !block.isNull(p)) {
          cells.add(block.getValues(p));
        } else if (extracts
            && !others.contains(((long) i << 32) | p)
            && !cleared.getOrDefault(((long) i << 32) | p, Set.of()).contains(name)) {
          FieldExtractor of = extractor(extractors, page, i, p);
          cells.add(of == null ? List.of() : List.copyOf(clock.time(() -> of.values(name))));
        } else {
          cells.add(List.of());
        }
      }
    }
    return cells;
  }

  /**
   * Whether the event at position {@code p} of the {@code i}-th page has a value of {@code field}
   * of its own: its page's column holds one, else (a field the source did not read) its extraction
   * finds one.
   */
  private boolean ownValue(
      Map<Long, FieldExtractor> extractors, Page page, int i, int p, String field) {
    if (hasValue(page, field, p)) {
      return true;
    }
    if (!extract || DEFAULT_ORDER.contains(field) || read.contains(field)) {
      return false;
    }
    FieldExtractor of = extractor(extractors, page, i, p);
    return of != null && !clock.time(() -> of.values(field)).isEmpty();
  }

  /** Whether {@code page}'s column {@code field} holds a value at {@code position}. */
  private static boolean hasValue(Page page, String field, int position) {
    int column = page.schema().indexOf(field);
    return column >= 0 && !page.block(column).isNull(position);
  }

  /** The extraction of position {@code p} of the {@code i}-th page, made once. */
  private FieldExtractor extractor(Map<Long, FieldExtractor> extractors, Page page, int i, int p) {
    return extractors.computeIfAbsent(((long) i << 32) | p, key -> extractor(page, p));
  }

  /**
   * The search-time extraction of a row, from its event's {@code _raw} and {@code sourcetype} (the
   * columns {@link ListingColumns#withEventText} kept, where a command changed them); null for a
   * row that is no event (a null event text: a plugin command's own row, {@link PluginOverEvents}).
   */
  private FieldExtractor extractor(Page page, int position) {
    Block raws = page.block(ListingColumns.EVENT_RAW);
    if (raws != null && raws.isNull(position)) {
      return null;
    }
    Block types = page.block(ListingColumns.EVENT_SOURCETYPE);
    String raw = (String) (raws != null ? raws : page.block(EventFields.RAW)).getObject(position);
    String sourcetype =
        (String) (types != null ? types : page.block(EventFields.SOURCETYPE)).getObject(position);
    return new FieldExtractor(raw, sourcetypes.forName(sourcetype));
  }
}
