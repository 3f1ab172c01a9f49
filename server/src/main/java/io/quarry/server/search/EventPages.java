package io.quarry.server.search;

import io.quarry.codecs.store.EventFields;
import io.quarry.codecs.store.EventRun;
import io.quarry.codecs.store.EventVisitor;
import io.quarry.codecs.store.StoredEvent;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.RexCommand;
import io.quarry.ql.engine.BlockCopies;
import io.quarry.server.sourcetype.KeyValueBytes;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A page source over one segment slice of a batch scan: the matching events become pages of just
 * the fields the page operators read — {@code _time} a timestamp column, every other field a string
 * column (a multivalue a position with several values) — and nothing else is read: an event's
 * index-time fields come from doc values one column at a time, and a search-time field is extracted
 * only when asked for. A field that is neither the sourcetype's nor in a JSON event is found by
 * automatic key=value extraction straight from the decoded journal block's bytes ({@link
 * KeyValueBytes}): no {@code String} for the event or its value. Leading {@code rex} commands over
 * {@code _raw} run here too, on the journal's bytes, and only for events whose page needs a field
 * they set ({@link #fuses}): the value of such a field is the last matching {@code rex}'s, else the
 * event's own. The remaining events go out as a last page when the slice ends ({@link #finish}),
 * while its segment is still open. Each field's values come from an {@link EventColumn}; what the
 * columns share about the event being read (its text, the fused {@code rex}es' matches, the
 * extraction clock) is an {@link EventReading}; the columns and how an event or a block run is
 * appended to them are {@link SliceColumns}; this class builds the pages, filters them and accounts
 * for what was read and matched.
 *
 * <p>Where the index query is not exact, the search's filter ({@link EventFilter}) decides which
 * visited events are on the pages: its words on each event's raw text as it is visited (an event
 * they rule out is not read further), its field comparisons over the page once built — the fields
 * they read are columns of it (each event's own values, whatever a fused {@code rex} sets), and the
 * page goes on with only the positions they keep.
 */
final class EventPages implements EventVisitor {
  private final Runnable release; // when the slice ends, finished or failed
  private final SearchControl control;
  private final EventFilter.Check check; // null: every event matches
  private final List<String> filterFields; // the fields the filter's comparisons read
  private final int[] filterColumns; // their columns (past fields.size(): the filter's own)
  private final int[] kept; // the positions of a page the filter keeps
  private final AtomicLong matched;
  private final int pageSize;
  private final Consumer<Page> consumer;
  private final Runnable afterFinish;
  private final List<String> fields;
  private final EventReading reading;
  private final SliceColumns columns;
  private long matchedHere;
  private int visited;
  private int rows;
  private boolean finished; // finish() reported what was read and matched
  private List<Map<String, List<String>>> listed; // listing: each event's index-time fields

  /**
   * Groups by ordinal the columns of {@code fields} ({@link PageShape#byOrdinal}, which names none
   * the filter reads), their whole dictionaries from {@code blocks}.
   */
  void groupByOrdinal(List<String> byOrdinal, SegmentDictionaryBlocks blocks) {
    for (String field : byOrdinal) {
      int column = fields.indexOf(field);
      if (column >= 0) {
        columns.column(column).groupByOrdinal(blocks);
      }
    }
  }

  /**
   * Whether {@code commands}, the commands before the page operators, can run inside this source:
   * {@code rex} extractions over {@code _raw} that set no default field.
   */
  static boolean fuses(List<Command> commands) {
    for (Command command : commands) {
      if (!(command instanceof RexCommand rex
          && rex.sed() == null
          && rex.field().equals(EventFields.RAW)
          && rex.groups().stream().noneMatch(g -> DEFAULT_FIELDS.contains(g.field())))) {
        return false;
      }
    }
    return true;
  }

  /** How many of {@code commands}' leading commands this source can run itself ({@link #fuses}). */
  static int fusedPrefix(List<Command> commands) {
    int fused = 0;
    while (fused < commands.size() && fuses(commands.subList(0, fused + 1))) {
      fused++;
    }
    return fused;
  }

  private static final java.util.Set<String> DEFAULT_FIELDS =
      java.util.Set.copyOf(EventListing.DEFAULT_ORDER);

  EventPages(
      List<String> fields,
      List<Command> fused,
      BooleanSupplier stopped,
      boolean indexedFieldsOnly,
      Sourcetypes sourcetypes,
      SearchControl control,
      EventFilter filter,
      AtomicLong matched,
      int pageSize,
      Consumer<Page> consumer,
      Runnable afterFinish,
      Runnable release) {
    this.fields = List.copyOf(fields);
    this.reading = new EventReading(sourcetypes, indexedFieldsOnly, fused, stopped);
    this.control = control;
    this.check = filter == null ? null : filter.check(pageSize);
    this.matched = matched;
    this.pageSize = pageSize;
    this.consumer = consumer;
    this.afterFinish = afterFinish;
    this.release = release;
    List<EventColumn> columns = new ArrayList<>(fields.size());
    for (String field : fields) {
      columns.add(new EventColumn(reading, field, pageSize, false));
    }
    this.filterFields = filter == null ? List.of() : filter.fields();
    this.filterColumns = new int[filterFields.size()];
    for (int f = 0; f < filterColumns.length; f++) {
      String field = filterFields.get(f);
      int shared = this.fields.indexOf(field);
      if (shared >= 0 && columns.get(shared).own()) {
        filterColumns[f] = shared; // the event's own values: read once for both
      } else {
        filterColumns[f] = columns.size();
        columns.add(new EventColumn(reading, field, pageSize, true));
      }
    }
    this.columns = new SliceColumns(columns, reading, pageSize);
    this.kept = new int[check != null ? pageSize : 0];
  }

  /**
   * Values keep the types extraction gives them: a JSON number or boolean is a number or boolean,
   * not its text, and a column holding one is typed as {@code PageBuilder} types the same values.
   * Where the page's columns are the answer (time-ordered mode) rather than an aggregation's input,
   * which compares numbers and their texts alike.
   */
  EventPages typedValues() {
    reading.typedValues();
    return this;
  }

  /**
   * Pages of an event listing ({@link EventListing}): besides the fields asked for, every default
   * field and every index-time field an event of the page has (null where an event lacks it), and
   * per event the names of its index-time fields in its own order ({@link
   * ListingColumns#FIELD_NAMES}), which decide the columns of the listing's pages.
   */
  EventPages listing() {
    if (!fields.containsAll(EventListing.DEFAULT_ORDER)) {
      throw new IllegalArgumentException("a listing's source reads the default fields: " + fields);
    }
    this.listed = new ArrayList<>(pageSize);
    return this;
  }

  @Override
  public boolean visit(StoredEvent event) {
    if (++visited % SearchControl.EVERY == 0 && control.readAndCheck(SearchControl.EVERY)) {
      return false;
    }
    if (check != null && !check.admit(event, rows)) {
      return true;
    }
    columns.append(event, rows);
    if (listed != null) {
      listed.add(event.indexedFields());
    }
    if (++rows == pageSize) {
      flush();
    }
    return true;
  }

  /**
   * Block runs when not a listing and either a filter decides which events are on the page ({@link
   * #appendAdmitted}) or every event is, and every column fills a run in one loop ({@link
   * SliceColumns#fillsRuns}); every other plan reads event by event.
   */
  @Override
  public boolean takesRuns() {
    return listed == null && (check != null || columns.fillsRuns());
  }

  /**
   * Fills the columns for the run a page's worth at a time, one loop per column, no event object
   * per event; a run no column fills in a loop, or whose texts a column reads while its block has a
   * non-ASCII text, is visited event by event. Under the search's filter, a chunk's words are
   * worked out at once over its texts ({@link EventFilter.Check#runWords}: each word's letters
   * searched for once over the texts lying back to back), each event is admitted from them (its
   * {@code StoredEvent} made only where a word's answer is its text's), an event they rule out is
   * never visited, and the admitted events are filled by run where the columns allow, else appended
   * as events; a run whose block has a text past ASCII, when the filter has words, goes event by
   * event.
   */
  @Override
  public boolean visit(EventRun run) {
    if (check != null && check.hasWords() && !run.ascii()) {
      return EventVisitor.super.visit(run);
    }
    int fill = columns.fillsRuns() ? columns.fill(run) : RunFill.BY_EVENT;
    boolean byRun = fill != RunFill.BY_EVENT && (fill != RunFill.BY_TEXT || run.ascii());
    if (!byRun && check == null) {
      return EventVisitor.super.visit(run);
    }
    int size = run.size();
    for (int done = 0; done < size; ) {
      // a chunk ends at the next stop check, which comes after its events are on the page
      int count =
          Math.min(
              Math.min(size - done, pageSize - rows),
              SearchControl.EVERY - visited % SearchControl.EVERY);
      if (check == null) {
        columns.appendChunk(run, done, count, rows);
        rows += count;
      } else {
        appendAdmitted(run, done, count, byRun);
      }
      done += count;
      visited += count;
      if (rows == pageSize) {
        flush();
      }
      if (visited % SearchControl.EVERY == 0 && control.readAndCheck(SearchControl.EVERY)) {
        run.stoppedAfter(done);
        return false;
      }
    }
    return true;
  }

  /**
   * Appends the events of {@code [from, from + count)} of {@code run} the filter admits, from
   * {@code rows} on: each stretch of them by run ({@link SliceColumns#appendChunk}) when {@code
   * byRun}, else each as an event.
   */
  private void appendAdmitted(EventRun run, int from, int count, boolean byRun) {
    check.runWords(run, from, count);
    for (int i = 0; i < count; i++) { // past each stretch: an event ruled out, or the chunk's end
      int start = i;
      while (i < count && check.admit(i, rows + i - start)) {
        if (!byRun) {
          StoredEvent event = check.admitted();
          columns.append(event != null ? event : run.event(from + i), rows);
          rows++;
          start++;
        }
        i++;
      }
      if (byRun && i > start) {
        columns.appendChunk(run, from + start, i - start, rows);
        rows += i - start;
      }
    }
  }

  /**
   * Also when the scan stopped before it ended (its driver closed it: a {@code head} had its rows):
   * what it read and matched until then still counts.
   */
  @Override
  public void close() {
    if (!finished) {
      account();
    }
    columns.close();
    release.run();
  }

  /** Values are copied into the pages' builders and strings; no event outlives its visit. */
  @Override
  public boolean keepsEvents() {
    return false;
  }

  @Override
  public void finish() {
    flush();
    account();
    finished = true;
    afterFinish.run();
  }

  /** The events read since the last report, matched, and the extraction's time, reported once. */
  private void account() {
    control.read(visited % SearchControl.EVERY); // the remainder, for progress
    matched.addAndGet(matchedHere);
    control.extracted(reading.extraction().take());
    control.byRun(columns.takeEventsByRun());
  }

  private void flush() {
    if (rows == 0) {
      return;
    }
    List<Schema.Column> schema = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    columns.build(schema, blocks);
    int size = rows;
    rows = 0;
    int count =
        check != null && check.open()
            ? check.select(filterPage(schema, blocks, size), size, kept)
            : size;
    matchedHere += count;
    int output = fields.size();
    Page page = new Page(new Schema(schema.subList(0, output)), blocks.subList(0, output), size);
    if (count < size) {
      page = BlockCopies.filter(page, kept, count);
      if (listed != null) {
        for (int i = 0; i < count; i++) {
          listed.set(i, listed.get(kept[i]));
        }
        listed.subList(count, size).clear();
      }
    }
    if (count == 0) {
      return;
    }
    page = columns.keptTyped(page, count < size ? kept : null, count);
    if (listed != null) {
      page = ListingColumns.sourcePage(page, listed);
      listed.clear();
    }
    consumer.accept(page);
  }

  /** The columns the filter's comparisons read, by their names. */
  private Page filterPage(List<Schema.Column> schema, List<Block> blocks, int size) {
    List<Schema.Column> read = new ArrayList<>(filterColumns.length);
    List<Block> columns = new ArrayList<>(filterColumns.length);
    for (int f = 0; f < filterColumns.length; f++) {
      read.add(new Schema.Column(filterFields.get(f), schema.get(filterColumns[f]).type()));
      columns.add(blocks.get(filterColumns[f]));
    }
    return new Page(new Schema(read), columns, size);
  }
}
