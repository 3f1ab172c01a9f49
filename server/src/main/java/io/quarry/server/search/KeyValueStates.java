package io.quarry.server.search;

import io.quarry.codecs.store.EventRun;
import io.quarry.codecs.store.EventVisitor;
import io.quarry.codecs.store.StoredEvent;
import io.quarry.codecs.store.TextRegion;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.engine.aggregation.TimeExtremeStates;
import io.quarry.server.sourcetype.AccessLogSpans;
import io.quarry.server.sourcetype.KeyPlaces;
import io.quarry.server.sourcetype.KeyValueBytes;
import io.quarry.server.sourcetype.Sourcetypes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One slice of a batch search whose map side is only {@code stats} of {@code count} and {@code
 * min}, {@code max} or {@code range} of {@code _time} by one search-time field found by automatic
 * key=value extraction — {@code index=main | stats range(_time), count by JSESSIONID} ({@link #of}
 * says when): the scan finds the field's key in each event's bytes itself and adds the event to its
 * value's states (rows, least and greatest {@code _time}) in a table kept over the thread's slices
 * ({@link KeyStateTables}, {@link BytesCounts}), which reaches the aggregation as intermediate
 * states ({@link TimeExtremeStates}): no page, no column, no value copied per event.
 *
 * <p>It answers exactly the events the page path would answer from the same bytes ({@link
 * RunFill#answers}, {@link EventColumn}): an ASCII text (a block run's, or an event's own), of a
 * block with no index-time value of the field, whose sourcetype reads plain {@code kvMode: auto}
 * pairs and does not extract the field itself, and which is not JSON-like; its values found as
 * {@link KeyValueCells} finds them ({@link KeyPlaces} over the block, else {@link KeyValueBytes}).
 * No value: the event joins no group (answered, nothing added). One value: added — a run's values
 * in batches ({@link BytesCounts#addRows}: many keys' cache misses in flight at once; one by one
 * the path was slower than pages). Several values of the key in one event (a multivalue) — and
 * every event it does not answer (past ASCII, an index-time value, the sourcetype's extraction,
 * JSON) — go to the page source it wraps ({@code remainder}, {@link EventPages}) exactly as without
 * this class, whose pages the slice's partial aggregation adds as input. A table that fills with
 * keys met fewer than {@value #REPEATS_TO_COUNT} times each on average sends the rest of the slice
 * to the page path (session 40's rule, which {@link RexCounting} no longer uses: it judges a
 * slice's first matches); a table that judges its keys not to repeat over the slices it lived
 * through ({@link KeyStateTables#judge}: a nearly unique field) sends the rest of the whole search
 * to the page path, every thread's slices ({@link KeyStateTables#paged}). The events it answered
 * are the job's {@code eventsAggregatedByKeyValue} ({@link SearchControl#aggregatedByKeyValue});
 * its time the extraction's ({@code fieldExtractionMs}), timed as every {@link FusedScan}.
 */
final class KeyValueStates extends FusedScan implements KeyValueBytes.Values {
  /**
   * Which events the scan aggregates itself, as {@code explain} says beside the field: the plan
   * cannot tell, as it does not know the sourcetypes an index's events carry — an index whose
   * sourcetype extracts the field at index time has every block on the page path.
   */
  static final String WHERE =
      "events of blocks with no index-time value of the field, of a sourcetype reading plain"
          + " key=value pairs, while its keys repeat; every other event by the page path";

  /** The average count per key below which a full table sends the rest of the slice to pages. */
  static final int REPEATS_TO_COUNT = 4;

  private final String field;
  private final byte[] key;
  private final KeyStateTables tables;
  private final boolean readsTime;
  private final KeyValueSourcetypes sourcetypes;
  private final RegionPlaces places;
  private KeyStateTables.Held held; // the table taken for this slice, from its making to its end
  private BytesCounts counts;

  private TextRegion region; // where the texts of the run being read lie
  private boolean sourcetypePerEvent; // the run's events' sourcetypes are not all one
  private int found; // values of the key in the text being read
  private int valueStart; // the first one's range
  private int valueEnd;

  private static final int BATCH = 256; // values of a run looked up together
  private final int[] batchStarts = new int[BATCH];
  private final int[] batchLengths = new int[BATCH];
  private final long[] batchTimes = new long[BATCH];
  private int batched;

  /**
   * The field whose states the scan can aggregate itself, or null: the search has no filter and no
   * {@code tstats}-like indexed-only reading, no command before the aggregation, which is a {@code
   * stats} the states answer ({@link TimeExtremeStates#supports}) by a field that only automatic
   * key=value extraction can give at search time (no default, access-log or date field; a key the
   * extraction can find) and the source reads that field (and {@code _time}) alone.
   */
  static String of(
      PageShape shape,
      List<Command> filters,
      Command aggregation,
      boolean filtered,
      boolean indexedFieldsOnly) {
    if (!scansBytes(shape, filtered, indexedFieldsOnly)
        || !filters.isEmpty()
        || shape.fused() != 0
        || !TimeExtremeStates.supports(aggregation)) {
      return null;
    }
    StatsCommand stats = (StatsCommand) aggregation;
    String field = stats.groupBy().get(0);
    if (EventListing.DEFAULT_ORDER.contains(field)
        || AccessLogSpans.field(field) >= 0
        || DateFields.is(field)
        || !StandardCharsets.US_ASCII.newEncoder().canEncode(field)
        || !KeyValueBytes.isKey(field.getBytes(StandardCharsets.US_ASCII))) {
      return null;
    }
    Set<String> read =
        TimeExtremeStates.readsTime(stats)
            ? Set.of(field, io.quarry.ql.exec.TimeField.NAME)
            : Set.of(field);
    return Set.copyOf(shape.sourceFields()).equals(read) ? field : null;
  }

  /**
   * Adds {@code field}'s states (from {@link #of}) into a table of {@code tables}; the events it
   * does not answer to {@code remainder}.
   */
  KeyValueStates(
      String field,
      KeyStateTables tables,
      Sourcetypes sourcetypes,
      SearchControl control,
      AtomicLong matched,
      EventVisitor remainder) {
    super(control, matched, remainder);
    this.field = field;
    this.key = field.getBytes(StandardCharsets.US_ASCII);
    this.places = new RegionPlaces(key, true); // every text of a run's block is read
    this.tables = tables;
    this.readsTime = tables.timed();
    this.sourcetypes = new KeyValueSourcetypes(sourcetypes, field);
    // taken now, as the slice is made, before the scan counts it started: when no slice is left
    // to start, the idle tables are those no slice takes again (KeyStateTables#handOnIdle)
    this.held = tables.take();
    this.counts = held.counts;
  }

  /**
   * A run whose block may hold the field at index time goes to the remainder whole, and so does one
   * whose events all have a sourcetype that takes the field from elsewhere; a run of one sourcetype
   * (a block's, as its doc values say) has it checked here once, not per event.
   */
  @Override
  boolean startsRun(EventRun run) {
    paged |= tables.paged(); // another thread's table judged the search's keys
    if (paged || run.mayHaveField(field)) {
      return false;
    }
    String sourcetype = run.soleSourcetype();
    if (sourcetype != null && sourcetypes.extracts(sourcetype)) {
      return false;
    }
    sourcetypePerEvent = sourcetype == null;
    region = run.textRegion();
    return true;
  }

  @Override
  boolean takesEvent(StoredEvent event) {
    return !tables.paged()
        && event.indexedField(field) == null
        && !sourcetypes.extracts(event.sourcetype());
  }

  /** An event read alone: added where the page path would find the key as this scan does. */
  @Override
  int answer(byte[] bytes, int offset, int length, StoredEvent event) {
    int values = find(bytes, offset, length, event.textRegion());
    if (values < 0) {
      return REMAINDER;
    }
    boolean full =
        values == 1
            && counts.addRow(
                bytes, valueStart, valueEnd - valueStart, readsTime ? event.timeMicros() : 0);
    if (full) {
      return HAND_ON;
    }
    judge();
    return ANSWERED;
  }

  @Override
  void handOnDue() {
    handOnFull();
    judge();
  }

  /** The table's keyed events judged once there are enough ({@link KeyStateTables#judge}). */
  private void judge() {
    if (tables.judge(held)) {
      paged = true; // the slice's and the search's later events: pages
    }
  }

  /**
   * An event of a run: its value batched where the page path would find the key as this scan does
   * (added when the batch is full or the run's answers are over, {@link #runAnswered}).
   */
  @Override
  boolean answer(EventRun run, int e, byte[] bytes, int offset, int length) {
    if (sourcetypePerEvent && sourcetypes.extracts(run.sourcetype(e))) {
      return false;
    }
    int values = find(bytes, offset, length, region);
    if (values < 0) {
      return false;
    }
    if (values == 1) {
      batchStarts[batched] = valueStart;
      batchLengths[batched] = valueEnd - valueStart;
      batchTimes[batched] = readsTime ? run.time(e) : 0;
      if (++batched == BATCH) {
        flush(bytes);
      }
    }
    return true;
  }

  @Override
  void runAnswered(byte[] bytes) {
    flush(bytes);
  }

  /**
   * The key's values in the ASCII text {@code bytes[offset, offset + length)} of a block whose
   * texts lie in {@code region}: how many, the first kept ({@code valueStart}, {@code valueEnd});
   * -1 when the page path answers the event (JSON-like, several values). An event answered here
   * ({@code found} 0 or 1) is counted in the slice's table's rows, and keyed with one value.
   */
  private int find(byte[] bytes, int offset, int length, TextRegion region) {
    if (KeyValueCells.mayBeJson(bytes, offset, length)) {
      return -1;
    }
    found = 0;
    KeyPlaces keyPlaces = places.places(region, bytes, offset, length);
    if (keyPlaces != null) {
      keyPlaces.values(bytes, offset, length, this);
    } else {
      KeyValueBytes.values(bytes, offset, length, key, this);
    }
    if (found > 1) {
      return -1; // a multivalue: the page path's
    }
    answered++;
    held.rows++;
    held.keyed += found;
    return found;
  }

  /** A value the key=value scan found: the first kept, the others counted. */
  @Override
  public void value(int start, int end) {
    if (found++ == 0) {
      valueStart = start;
      valueEnd = end;
    }
  }

  /**
   * The run's batch of values added to the table together ({@link BytesCounts#addRows}); the table
   * handed on whenever it fills, its time left out of the run's.
   */
  private void flush(byte[] bytes) {
    int from = 0;
    while (from < batched) {
      int n = batched - from;
      if (from > 0) {
        System.arraycopy(batchStarts, from, batchStarts, 0, n);
        System.arraycopy(batchLengths, from, batchLengths, 0, n);
        System.arraycopy(batchTimes, from, batchTimes, 0, n);
        batched = n;
        from = 0;
      }
      from = counts.addRows(bytes, batchStarts, batchLengths, batchTimes, n);
      if (counts.full()) {
        elsewhere(handOnFull());
      }
    }
    batched = 0;
    if (held != null) {
      judge(); // the run's later events too
    }
  }

  /**
   * The full table handed on ({@link KeyStateTables#handOn}); when its keys were met fewer than
   * {@value #REPEATS_TO_COUNT} times each on average the rest of the slice goes to the remainder,
   * the page path. Returns the hand-on's time, the aggregation stage's.
   */
  private long handOnFull() {
    boolean sparse = KeyRepeats.tooFew(counts.size(), held.keyed, 1, REPEATS_TO_COUNT);
    long took = tables.handOn(held);
    if (sparse) {
      paged = true; // seen as fewer eventsAggregatedByKeyValue than events matched
    }
    return took;
  }

  /** The table put back for the thread's next slice (the events it answered count as matched). */
  @Override
  void handBack() {
    if (held != null) {
      tables.put(held);
      held = null;
      counts = null;
    }
  }

  @Override
  void reportAnswered(long events) {
    control.aggregatedByKeyValue(events);
  }
}
