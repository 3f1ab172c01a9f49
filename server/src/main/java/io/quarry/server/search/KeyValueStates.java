package io.quarry.server.search;

import io.quarry.codecs.store.AsciiText;
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
import io.quarry.server.sourcetype.Sourcetype;
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
 * in batches ({@link BytesCounts#addTimedAll}: many keys' cache misses in flight at once; one by
 * one the path was slower than pages). Several values of the key in one event (a multivalue) — and
 * every event it does not answer (past ASCII, an index-time value, the sourcetype's extraction,
 * JSON) — go to the page source it wraps ({@code remainder}, {@link EventPages}) exactly as without
 * this class, whose pages the slice's partial aggregation adds as input. A table that fills with
 * keys met fewer than {@value #REPEATS_TO_COUNT} times each on average sends the rest of the slice
 * to the page path (session 40's rule, which {@link RexCounting} no longer uses: it judges a
 * slice's first matches); a table that judges its keys not to repeat over the slices it lived
 * through ({@link KeyStateTables#judge}: a nearly unique field) sends the rest of the whole search
 * to the page path, every thread's slices ({@link KeyStateTables#paged}). The events it answered
 * are the job's {@code eventsAggregatedByKeyValue} ({@link SearchControl#aggregatedByKeyValue});
 * its time the extraction's ({@code fieldExtractionMs}), timed as {@link RexCounting} times its
 * runs.
 */
final class KeyValueStates implements EventVisitor, KeyValueBytes.Values {
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
  private final Sourcetypes sourcetypes;
  private final EventVisitor remainder;
  private final SearchControl control;
  private final AtomicLong matched;
  private final RegionPlaces places;
  private final ExtractionClock clock = new ExtractionClock();
  private KeyStateTables.Held held; // the table taken for this slice
  private BytesCounts counts;

  private int visited; // events answered here, for the control's stop checks and progress
  private long answered; // answered in all, reported when the slice ends
  private long nanos; // the runs' finding and adding, reported as the extraction's time
  private int remainders; // events of runs handed to the remainder, one in SAMPLE timed
  private boolean paged; // the table filled with keys seen about once: the rest goes to pages
  private boolean finished;
  private int found; // values of the key in the text being read
  private int valueStart; // the first one's range
  private int valueEnd;
  private String checkedSourcetype; // the sourcetype name last asked about, and its answer
  private boolean sourcetypeExtracts;

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
    if (filtered
        || indexedFieldsOnly
        || !filters.isEmpty()
        || shape.fused() != 0
        || !shape.onPages()
        || shape.ownText()
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
    this.field = field;
    this.key = field.getBytes(StandardCharsets.US_ASCII);
    this.places = new RegionPlaces(key);
    this.tables = tables;
    this.readsTime = tables.timed();
    this.sourcetypes = sourcetypes;
    this.control = control;
    this.matched = matched;
    this.remainder = remainder;
  }

  /** The slice's table, taken on first use. */
  private BytesCounts counts() {
    if (counts == null) {
      held = tables.take();
      counts = held.counts;
    }
    return counts;
  }

  /** An event of a block not read by run, or of the event layout. */
  @Override
  public boolean visit(StoredEvent event) {
    if (paged
        || tables.paged()
        || event.indexedField(field) != null
        || sourcetypeExtracts(event.sourcetype())
        || !(event.rawText() instanceof AsciiText ascii)) {
      return remainder.visit(event);
    }
    long started = clock.start();
    int added =
        add(
            ascii.array(),
            ascii.offset(),
            ascii.length(),
            event.textRegion(),
            readsTime ? event.timeMicros() : 0);
    clock.stop(started);
    if (added < 0) {
      return remainder.visit(event);
    }
    if (added > 0) {
      handOnFull();
    }
    if (added >= 0 && held != null && tables.judge(held)) {
      paged = true;
    }
    return checked();
  }

  @Override
  public boolean takesRuns() {
    return true;
  }

  /**
   * A run added event by event where the page path would find the key in an ASCII text; a block
   * that may hold the field at index time goes to the remainder whole.
   */
  @Override
  public boolean visit(EventRun run) {
    if (paged || tables.paged() || run.mayHaveField(field)) {
      paged |= tables.paged();
      return remainder.visit(run);
    }
    long started = System.nanoTime();
    long elsewhere = 0; // the hand-ons' time, and the remainder's (one event in SAMPLE timed)
    boolean ascii = run.ascii();
    byte[] bytes = run.bytes();
    int size = run.size();
    int[] bounds = run.textBounds();
    int first = run.first();
    TextRegion region = run.textRegion();
    for (int e = 0; e < size; e++) {
      int offset = bounds[first + e];
      int length = bounds[first + e + 1] - offset;
      int added =
          paged
                  || !(ascii || AsciiText.isAscii(bytes, offset, length))
                  || sourcetypeExtracts(run.sourcetype(e))
              ? -1
              : collect(bytes, offset, length, region, readsTime ? run.time(e) : 0);
      boolean going;
      if (added >= 0) {
        if (batched == BATCH) {
          elsewhere += flush(bytes);
        }
        going = checked();
      } else if (paged || remainders++ % ExtractionClock.SAMPLE == 0) {
        long handed = System.nanoTime();
        going = remainder.visit(run.event(e));
        long took = System.nanoTime() - handed;
        elsewhere += paged ? took : took * ExtractionClock.SAMPLE;
      } else {
        going = remainder.visit(run.event(e));
      }
      if (!going) {
        elsewhere += flush(bytes);
        run.stoppedAfter(e + 1);
        nanos += Math.max(0, System.nanoTime() - started - elsewhere);
        return false;
      }
    }
    elsewhere += flush(bytes);
    nanos += Math.max(0, System.nanoTime() - started - elsewhere);
    return true;
  }

  private static final int BATCH = 256; // values of a run looked up together
  private final int[] batchStarts = new int[BATCH];
  private final int[] batchLengths = new int[BATCH];
  private final long[] batchTimes = new long[BATCH];
  private int batched;

  /**
   * As {@link #add}, but a found value kept for the run's next batch lookup ({@link #flush}): 0
   * answered, -1 the page path's.
   */
  private int collect(byte[] bytes, int offset, int length, TextRegion region, long time) {
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
      return -1;
    }
    answered++;
    counts();
    held.rows++;
    if (found == 1) {
      held.keyed++;
      batchStarts[batched] = valueStart;
      batchLengths[batched] = valueEnd - valueStart;
      batchTimes[batched] = time;
      batched++;
    }
    return 0;
  }

  /**
   * The batch's values added to the table together ({@link BytesCounts#addTimedAll}); the table
   * handed on whenever it fills. Returns the hand-ons' time.
   */
  private long flush(byte[] bytes) {
    long took = 0;
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
      int added = counts.addTimedAll(bytes, batchStarts, batchLengths, batchTimes, n);
      from = added;
      if (counts.full()) {
        took += handOnFull();
      }
    }
    batched = 0;
    if (held != null && tables.judge(held)) {
      paged = true; // the run's later events, the slice's and the search's later runs: pages
    }
    return took;
  }

  /**
   * Adds the text {@code bytes[offset, offset + length)} (ASCII, of a block whose texts lie in
   * {@code region}) at {@code time}: 0 when answered (its one value added, or none: no group), 1
   * when answered and the table is now full ({@link #handOnFull}), -1 when the page path answers it
   * (JSON-like, several values; nothing added).
   */
  private int add(byte[] bytes, int offset, int length, TextRegion region, long time) {
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
    BytesCounts counts = counts();
    held.rows++;
    if (found == 0) {
      return 0;
    }
    held.keyed++;
    return counts.addTimed(bytes, valueStart, valueEnd - valueStart, time) ? 1 : 0;
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
   * The full table handed on ({@link KeyStateTables#handOn}); when its keys were met fewer than
   * {@value #REPEATS_TO_COUNT} times each on average the rest of the slice goes to the remainder,
   * the page path. Returns the hand-on's time, the aggregation stage's.
   */
  private long handOnFull() {
    boolean sparse = held.keyed < REPEATS_TO_COUNT * (long) counts.size();
    long took = tables.handOn(held);
    if (sparse) {
      paged = true; // seen as fewer eventsAggregatedByKeyValue than events matched
    }
    return took;
  }

  /** Whether the scan goes on after an event answered here: the control asked every so often. */
  private boolean checked() {
    return ++visited % SearchControl.EVERY != 0 || !control.readAndCheck(SearchControl.EVERY);
  }

  /**
   * Whether the sourcetype's own extraction may give the field (then key=value does not), or the
   * sourcetype reads its text other than as plain {@code kvMode: auto} pairs: the page path's
   * answer then ({@link EventColumn#sourcetypeExtracts}).
   */
  private boolean sourcetypeExtracts(String sourcetypeName) {
    if (sourcetypeName != checkedSourcetype) { // the same String for a segment's sourcetype
      checkedSourcetype = sourcetypeName;
      Sourcetype sourcetype = sourcetypes.forName(sourcetypeName);
      sourcetypeExtracts = sourcetype.mayExtract(field) || !sourcetype.readsPlainPairs();
    }
    return sourcetypeExtracts;
  }

  @Override
  public boolean keepsEvents() {
    return remainder.keepsEvents();
  }

  /** The table put back for the thread's next slice, then the remainder finished. */
  @Override
  public void finish() {
    account();
    remainder.finish();
  }

  /**
   * Also when the slice failed or its driver closed it early: the table goes back with what it
   * holds (the events it answered are counted as matched), handed on with the others at the end.
   */
  @Override
  public void close() {
    if (!finished) {
      account();
    }
    remainder.close();
  }

  private void account() {
    finished = true;
    if (held != null) {
      tables.put(held);
      held = null;
      counts = null;
    }
    control.read(visited % SearchControl.EVERY);
    matched.addAndGet(answered);
    control.aggregatedByKeyValue(answered);
    control.extracted(nanos + clock.take());
    answered = 0;
    nanos = 0;
  }
}
