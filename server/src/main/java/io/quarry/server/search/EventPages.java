package io.quarry.server.search;

import io.quarry.codecs.store.AsciiText;
import io.quarry.codecs.store.EventFields;
import io.quarry.codecs.store.EventVisitor;
import io.quarry.codecs.store.StoredEvent;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.RexCommand;
import io.quarry.ql.engine.BlockCopies;
import io.quarry.ql.engine.DictionaryBlockBuilder;
import io.quarry.ql.exec.RexExtraction;
import io.quarry.ql.exec.Values;
import io.quarry.server.sourcetype.AccessLogSpans;
import io.quarry.server.sourcetype.KeyValueBytes;
import io.quarry.server.sourcetype.Sourcetypes;
import java.nio.charset.StandardCharsets;
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
 * while its segment is still open.
 *
 * <p>Where the index query is not exact, the search's filter ({@link EventFilter}) decides which
 * visited events are on the pages: its words on each event's raw text as it is visited (an event
 * they rule out is not read further), its field comparisons over the page once built — the fields
 * they read are columns of it (each event's own values, whatever a fused {@code rex} sets), and the
 * page goes on with only the positions they keep.
 */
final class EventPages implements EventVisitor {
  private final Sourcetypes sourcetypes;
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
  private final ExtractionClock extraction = new ExtractionClock();
  private final List<String> fields;
  private final boolean extract; // false for tstats: only default and index-time fields
  private final Column[] columns;
  private final RexExtraction[] rexes; // the fused rex commands, in pipeline order
  private final List<Map<String, Object>> assigned; // per rex, this event's match (null: not yet)
  private long matchedHere;
  private int visited;
  private int rows;
  private boolean typed; // values keep the type extraction gives them (JSON numbers, booleans)
  private boolean finished; // finish() reported what was read and matched
  private List<Map<String, List<String>>> listed; // listing: each event's index-time fields

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

  private static final long UNDECIDED_SPAN = RexExtraction.UNDECIDED_SPAN;

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
    this.extract = !indexedFieldsOnly;
    this.sourcetypes = sourcetypes;
    this.control = control;
    this.check = filter == null ? null : filter.check(pageSize);
    this.matched = matched;
    this.pageSize = pageSize;
    this.consumer = consumer;
    this.afterFinish = afterFinish;
    this.release = release;
    this.rexes = new RexExtraction[fused.size()];
    this.assigned = new ArrayList<>(fused.size());
    for (int i = 0; i < rexes.length; i++) {
      rexes[i] = new RexExtraction((RexCommand) fused.get(i), stopped);
      assigned.add(null);
    }
    List<Column> columns = new ArrayList<>(fields.size());
    for (String field : fields) {
      columns.add(new Column(field, pageSize, false));
    }
    this.filterFields = filter == null ? List.of() : filter.fields();
    this.filterColumns = new int[filterFields.size()];
    for (int f = 0; f < filterColumns.length; f++) {
      String field = filterFields.get(f);
      int shared = this.fields.indexOf(field);
      if (shared >= 0 && columns.get(shared).producers.length == 0) {
        filterColumns[f] = shared; // the event's own values: read once for both
      } else {
        filterColumns[f] = columns.size();
        columns.add(new Column(field, pageSize, true));
      }
    }
    this.columns = columns.toArray(Column[]::new);
    this.kept = new int[check != null ? pageSize : 0];
  }

  /**
   * Values keep the types extraction gives them: a JSON number or boolean is a number or boolean,
   * not its text, and a column holding one is typed as {@code PageBuilder} types the same values.
   * Where the page's columns are the answer (time-ordered mode) rather than an aggregation's input,
   * which compares numbers and their texts alike.
   */
  EventPages typedValues() {
    this.typed = true;
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
    for (int i = 0; i < rexes.length; i++) {
      assigned.set(i, null);
    }
    Extraction extracted = null;
    for (Column column : columns) {
      extracted = column.append(event, extracted);
    }
    if (listed != null) {
      listed.add(event.indexedFields());
    }
    if (++rows == pageSize) {
      flush();
    }
    return true;
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
    control.extracted(extraction.take());
  }

  private void flush() {
    if (rows == 0) {
      return;
    }
    List<Schema.Column> schema = new ArrayList<>(columns.length);
    List<Block> blocks = new ArrayList<>(columns.length);
    for (Column column : columns) {
      Block block = column.build(pageSize);
      schema.add(new Schema.Column(column.name, block.dataType()));
      blocks.add(block);
    }
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

  /**
   * The value a fused {@code rex} leaves in {@code field} for this event — the last one that
   * matched and set it — or null when none did.
   */
  private Object rexValue(StoredEvent event, String field, int[] producers) {
    for (int p = producers.length - 1; p >= 0; p--) {
      int i = producers[p];
      Map<String, Object> match = assigned.get(i);
      if (match == null) {
        CharSequence raw = rawText(event);
        match = extraction.time(() -> rexes[i].assignments(raw));
        assigned.set(i, match);
      }
      Object value = match.get(field);
      if (value != null) {
        return value;
      }
    }
    return null;
  }

  /**
   * The event's {@code _raw} as characters, read from the journal once per event however many
   * columns scan it (a view of the decoded block for an ASCII event, valid until the next event).
   */
  private CharSequence rawText(StoredEvent event) {
    if (rawOf != event) {
      rawOf = event;
      raw = event.rawText();
    }
    return raw;
  }

  private StoredEvent rawOf; // the event raw was read for
  private CharSequence raw;

  private final AccessLogSpans accessLog = new AccessLogSpans(); // shared by the columns
  private StoredEvent spannedEvent; // the event accessLog parsed (or found not to apply to)
  private boolean spanned;
  private String accessLogSourcetype;
  private boolean sourcetypeParsesAccessLogs;

  /** One event's search-time extraction, shared by the columns that need it. */
  private final class Extraction {
    final FieldExtractor extractor;

    Extraction(StoredEvent event) {
      this.extractor = new FieldExtractor(event.raw(), sourcetypes.forName(event.sourcetype()));
    }
  }

  /** One field's values for the page being built. */
  private final class Column implements KeyValueBytes.Values {
    private final String name;
    private byte[] scanned; // the bytes being scanned for key=value pairs, and what was found
    private int found;
    private int firstStart;
    private int firstEnd;
    private final byte[] key;
    private final boolean time;
    private final int[] producers; // the fused rex commands that may set this field
    private final int accessLogField; // its index among the access-log fields, or -1
    private LongBlock.Builder times;
    private BytesBlock.Builder texts;
    private final DictionaryBlockBuilder defaults; // host, source, sourcetype, index: few values
    private final OrdinalColumn ordinals; // a field that may be a keyword index-time one, else null
    private boolean plain; // this page's values went plain after some by ordinal
    private Map<Integer, List<Object>> typedCells; // position → values that are not all text

    /** {@code own}: the event's own values, never a fused {@code rex}'s (the filter's columns). */
    Column(String name, int pageSize, boolean own) {
      this.name = name;
      this.key = name.getBytes(StandardCharsets.US_ASCII);
      this.time = name.equals(EventFields.TIME);
      this.accessLogField = AccessLogSpans.field(name);
      this.producers =
          own
              ? new int[0]
              : java.util.stream.IntStream.range(0, rexes.length)
                  .filter(i -> rexes[i].fields().contains(name))
                  .toArray();
      this.defaults = defaultField(name) ? new DictionaryBlockBuilder(pageSize) : null;
      this.ordinals =
          !time && defaults == null && producers.length == 0 && !name.equals(EventFields.RAW)
              ? new OrdinalColumn(name, pageSize)
              : null;
      reset(pageSize);
    }

    private void reset(int pageSize) {
      plain = false;
      if (time) {
        times = LongBlock.builder(DataType.TIMESTAMP, pageSize);
      } else if (defaults == null) {
        texts = ordinals == null ? BytesBlock.builder(pageSize) : null; // made when needed
      }
    }

    /**
     * Whether this event's value went in by its ordinal; when not, the page's values so far are
     * made plain and the page goes on plain.
     */
    private boolean appendedByOrdinal(StoredEvent event) {
      if (ordinals == null || plain) {
        return false;
      }
      if (ordinals.append(event)) {
        return true;
      }
      plain = true;
      texts = BytesBlock.builder(pageSize);
      ordinals.copyInto(texts);
      return false;
    }

    Block build(int pageSize) {
      Block block =
          time
              ? times.build()
              : defaults != null
                  ? defaults.build(pageSize)
                  : ordinals != null && !plain ? ordinals.build() : texts.build();
      if (typedCells != null) {
        block = retyped(block);
        typedCells = null;
      }
      reset(pageSize);
      return block;
    }

    /** The column again from its cells, the typed ones as they were, typed by PageBuilder. */
    private Block retyped(Block texts) {
      List<List<Object>> cells = new ArrayList<>(texts.positionCount());
      for (int p = 0; p < texts.positionCount(); p++) {
        List<Object> cell = typedCells.get(p);
        cells.add(cell != null ? cell : texts.getValues(p));
      }
      return io.quarry.ql.exec.PageBuilder.column(name, cells);
    }

    /**
     * Whether the column is a default field other than {@code _time} and {@code _raw}: one of a
     * handful of values per page, written as a dictionary block — unless a fused {@code rex} may
     * set it (never: {@link #fuses} takes none that sets a default field).
     */
    private boolean defaultField(String name) {
      return producers.length == 0
          && switch (name) {
            case EventFields.HOST, EventFields.SOURCE, EventFields.SOURCETYPE, EventFields.INDEX ->
                true;
            default -> false;
          };
    }

    private void appendDefault(String value) {
      if (defaults != null) {
        defaults.append(value);
      } else {
        texts.append(value);
      }
    }

    /** Appends the event's values; returns its extraction, made if this column needed it. */
    Extraction append(StoredEvent event, Extraction extracted) {
      long span =
          producers.length == 1 ? spanFromBytes(event, rexes[producers[0]]) : UNDECIDED_SPAN;
      if (span >= 0) {
        return extracted; // appended
      }
      if (span == UNDECIDED_SPAN && producers.length > 0) {
        Object value = rexValue(event, name, producers);
        if (value != null) {
          appendObject(value);
          return extracted;
        }
      }
      switch (name) {
        case EventFields.TIME -> times.append(event.timeMicros());
        case EventFields.RAW -> texts.append(event.raw());
        case EventFields.HOST -> appendDefault(event.host());
        case EventFields.SOURCE -> appendDefault(event.source());
        case EventFields.SOURCETYPE -> appendDefault(event.sourcetype());
        case EventFields.INDEX -> appendDefault(event.index());
        default -> {
          if (appendedByOrdinal(event)) {
            return extracted;
          }
          List<String> indexed = event.indexedField(name);
          if (indexed != null) {
            appendValues(indexed);
          } else if (!extract) {
            texts.appendNull();
          } else if (accessLogField >= 0 && accessLogFromBytes(event)) {
            return extracted; // appended
          } else if (extracted == null && !keyValuesFromBytes(event)) {
            extracted = new Extraction(event);
            appendExtracted(extracted);
          } else if (extracted != null) {
            appendExtracted(extracted);
          }
        }
      }
      return extracted;
    }

    /**
     * The field from the one {@code rex} that may set it, by the one-pass matcher over the event's
     * bytes, copied into the block without a {@code String}: the span it appended, {@link
     * RexExtraction#NO_SPAN} when the rex did not match (the event's own value applies), {@link
     * RexExtraction#UNDECIDED_SPAN} when that matcher cannot tell (nothing appended).
     */
    private long spanFromBytes(StoredEvent event, RexExtraction rex) {
      if (!(rawText(event) instanceof AsciiText raw)) {
        return UNDECIDED_SPAN;
      }
      long started = extraction.start();
      long span = rex.span(raw);
      extraction.stop(started);
      if (span >= 0) {
        int start = (int) (span >>> 32);
        texts.append(raw.array(), raw.offset() + start, (int) span - start);
      }
      return span;
    }

    /**
     * The field by automatic key=value extraction over the event's bytes, where that is what the
     * full extraction ({@link FieldExtractor}) would find (neither the sourcetype nor JSON gives
     * it); false when it is not.
     */
    private boolean keyValuesFromBytes(StoredEvent event) {
      String sourcetypeName = event.sourcetype();
      if (sourcetypeName != checkedSourcetype) { // the same String for a segment's sourcetype
        checkedSourcetype = sourcetypeName;
        sourcetypeExtracts =
            sourcetypes.forName(sourcetypeName).mayExtract(name) || DateFields.is(name);
      }
      if (sourcetypeExtracts || !(rawText(event) instanceof AsciiText raw)) {
        return false;
      }
      byte[] bytes = raw.array();
      int offset = raw.offset();
      int length = raw.length();
      if (mayBeJson(bytes, offset, length)) {
        return false;
      }
      long started = extraction.start();
      scanned = bytes;
      found = 0;
      KeyValueBytes.values(bytes, offset, length, key, this);
      if (found == 0) {
        texts.appendNull();
      } else if (found == 1) {
        texts.append(bytes, firstStart, firstEnd - firstStart);
      } else {
        texts.endPositionEntry();
      }
      extraction.stop(started);
      return true;
    }

    private String checkedSourcetype; // the sourcetype name last asked about, and its answer
    private boolean sourcetypeExtracts;

    /**
     * The field from the built-in access-log extraction, cut out of the event's bytes where the
     * event's sourcetype uses it and its parser knows the line and finds the field (the line is
     * parsed once per event for all such columns); false when the ordinary extraction answers.
     */
    private boolean accessLogFromBytes(StoredEvent event) {
      if (spannedEvent != event) {
        spannedEvent = event;
        String sourcetypeName = event.sourcetype();
        if (sourcetypeName != accessLogSourcetype) { // the same String for a segment's sourcetype
          accessLogSourcetype = sourcetypeName;
          sourcetypeParsesAccessLogs = sourcetypes.forName(sourcetypeName).parsesAccessLogs();
        }
        long started = extraction.start();
        spanned =
            sourcetypeParsesAccessLogs
                && rawText(event) instanceof AsciiText raw
                && accessLog.parse(raw);
        extraction.stop(started);
      }
      int start = spanned ? accessLog.start(accessLogField) : -1;
      if (start < 0) {
        return false;
      }
      AsciiText raw = (AsciiText) rawText(event);
      texts.append(raw.array(), raw.offset() + start, accessLog.end(accessLogField) - start);
      return true;
    }

    /** A value the key=value scan found: one is kept, a second starts a multivalue. */
    @Override
    public void value(int start, int end) {
      if (found++ == 0) {
        firstStart = start;
        firstEnd = end;
        return;
      }
      if (found == 2) {
        texts.beginPositionEntry();
        texts.append(scanned, firstStart, firstEnd - firstStart);
      }
      texts.append(scanned, start, end - start);
    }

    private void appendObject(Object value) {
      if (value instanceof List<?> list) {
        appendValues(List.copyOf(list));
      } else {
        texts.append(Values.toText(value));
      }
    }

    private void appendExtracted(Extraction extracted) {
      appendValues(extraction.time(() -> extracted.extractor.values(name)));
    }

    /** Keeps the values of this position when one of them is not text (see {@link #retyped}). */
    private void keepTyped(List<?> values) {
      for (int i = 0; i < values.size(); i++) {
        if (!(values.get(i) instanceof String)) {
          if (typedCells == null) {
            typedCells = new java.util.HashMap<>();
          }
          typedCells.put(rows, List.copyOf(values));
          return;
        }
      }
    }

    private void appendValues(List<?> values) {
      if (typed) {
        keepTyped(values);
      }
      switch (values.size()) {
        case 0 -> texts.appendNull();
        case 1 -> texts.append(Values.toText(values.get(0)));
        default -> {
          texts.beginPositionEntry();
          for (Object value : values) {
            texts.append(Values.toText(value));
          }
          texts.endPositionEntry();
        }
      }
    }
  }

  /**
   * Whether the text, without surrounding whitespace (as {@code String.strip} sees it), starts with
   * <code>{</code> and ends with <code>}</code>: then JSON extraction comes first and the full
   * extraction ({@link FieldExtractor}) decides.
   */
  private static boolean mayBeJson(byte[] bytes, int offset, int length) {
    int start = offset;
    int end = offset + length;
    while (start < end && Character.isWhitespace(bytes[start])) {
      start++;
    }
    while (end > start && Character.isWhitespace(bytes[end - 1])) {
      end--;
    }
    return end - start >= 2 && bytes[start] == '{' && bytes[end - 1] == '}';
  }
}
