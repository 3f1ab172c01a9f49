package io.quarry.server.search;

import io.quarry.codecs.store.EventRun;
import io.quarry.codecs.store.EventVisitor;
import io.quarry.codecs.store.StoredEvent;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.RexCommand;
import io.quarry.ql.engine.aggregation.CountPages;
import io.quarry.ql.engine.aggregation.CountShortcut;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.exec.MemoryTracker;
import io.quarry.ql.exec.RexExtraction;
import io.quarry.ql.exec.StageStats;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * One slice of a batch search whose map side is only fused {@code rex} extractions before a count
 * by the field one of them sets — {@code rex "^(?<ip>\S+)" | stats count by ip}, {@code top ip}:
 * the scan counts the field's values itself instead of building pages of them ({@link #of} says
 * when). Per event of an ASCII block run (or an event whose text is ASCII) the {@code rex}'s
 * one-pass matcher runs over the decoded journal bytes ({@link RexExtraction#span(byte[], int,
 * int)}) and, where it matches, the value's bytes are counted where they lie ({@link BytesCounts}):
 * no page, no column, no value copied per event. Every event it does not answer — the {@code rex}
 * does not match (the event's own value of the field applies: index-time, key=value or the
 * sourcetype's extraction), a text past ASCII — goes to the page source it wraps ({@code
 * remainder}, {@link EventPages}) exactly as without this class, whose pages the same partial
 * aggregation adds as input. The counts reach the partial as pages of intermediate state ({@link
 * CountPages#values}, {@link PageAggregator#addIntermediateInput}) when the table is full and when
 * the slice ends — ES|QL's count-source idea applied to a search-time field. Counting pays where
 * keys repeat: after its first {@value #JUDGED_AFTER} matches a slice whose keys were mostly met
 * once ({@link #judge}) hands those counts on and sends the rest of its events to the page source:
 * the rest of the current run event by event (the {@code rex} no longer run on them), the slice's
 * later runs whole as without this class. The events it counted are the job's {@code
 * eventsCountedByRex} ({@link SearchControl#countedByRex}). The table's memory is charged to the
 * search's account beside the aggregation's ({@link BytesCounts}), given back once when the slice
 * ends. Its time is the extraction's ({@code fieldExtractionMs}) as {@link EventPages} times it: a
 * block run with one clock pair, an event read alone one in {@value ExtractionClock#SAMPLE} ({@link
 * ExtractionClock}); handing the counts on is the aggregation stage's time, left out; the events
 * handed to the remainder are timed there, left out too (one in {@value ExtractionClock#SAMPLE} of
 * a run's timed to subtract).
 */
final class RexCounting extends FusedScan {
  /**
   * The matches after which a slice judges whether its keys repeat enough to count them here: the
   * first {@value} of them are counted in any case.
   */
  static final int JUDGED_AFTER = 4096;

  /**
   * A slice whose first {@link #JUDGED_AFTER} matches hold more than this many distinct keys in
   * every eight matches (seven eighths distinct) sends the rest of its events to the page path.
   */
  static final int DISTINCT_IN_EIGHT = 7;

  private final String field;
  private final RexExtraction rex;
  private final PageAggregator partial;
  private final StageStats stages;
  private final int statsAt; // the aggregation's stage; the fused rexes are the stages before it
  private final BytesCounts counts;

  private long countedRows; // counted since the counts were last handed on (then answered)
  private boolean judged; // whether the keys' repeats were judged (after JUDGED_AFTER matches)

  /**
   * The {@code rex} whose field the scan can count itself, or null: the search has no filter and no
   * {@code tstats}-like indexed-only reading, every command before the aggregation is a fused
   * {@code rex} ({@link PageShape#fused}), the aggregation only counts by one field ({@link
   * CountShortcut.Kind#VALUES}, which {@link PageAggregator#addIntermediateInput} takes), the
   * source reads that field alone, and exactly one of the {@code rex}es may set it, with one named
   * group and a regex the one-pass matcher answers ({@link RexExtraction#spans}).
   */
  static RexCommand of(
      PageShape shape,
      List<Command> filters,
      Command aggregation,
      boolean filtered,
      boolean indexedFieldsOnly) {
    if (!scansBytes(shape, filtered, indexedFieldsOnly)
        || filters.isEmpty()
        || shape.fused() != filters.size()) {
      return null;
    }
    CountShortcut counting = CountShortcut.of(aggregation);
    if (counting == null || counting.kind() != CountShortcut.Kind.VALUES) {
      return null;
    }
    String field = counting.field();
    if (!shape.sourceFields().equals(List.of(field))) {
      return null;
    }
    RexCommand sole = null;
    for (Command command : filters) {
      RexCommand rex = (RexCommand) command; // fused: every one a rex
      if (rex.groups().stream().anyMatch(g -> g.field().equals(field))) {
        if (sole != null) {
          return null; // the last matching one's value: left to the page source
        }
        sole = rex;
      }
    }
    return sole != null && new RexExtraction(sole, () -> false).spans() ? sole : null;
  }

  /**
   * Counts {@code field}'s values as {@code rex} (from {@link #of}) sets them, into {@code
   * partial}; the fused {@code rex}es are the stages before {@code statsAt}; the table's memory on
   * {@code memory} (the search's account).
   */
  RexCounting(
      RexCommand rex,
      String field,
      BooleanSupplier stopped,
      PageAggregator partial,
      SearchControl control,
      AtomicLong matched,
      StageStats stages,
      int statsAt,
      MemoryTracker memory,
      EventVisitor remainder) {
    super(control, matched, remainder);
    this.counts = new BytesCounts(memory);
    this.field = field;
    this.rex = new RexExtraction(rex, stopped);
    this.partial = partial;
    this.stages = stages;
    this.statsAt = statsAt;
  }

  @Override
  boolean startsRun(EventRun run) {
    return true;
  }

  @Override
  boolean takesEvent(StoredEvent event) {
    return true;
  }

  /** An event read alone: counted where the {@code rex} matches. */
  @Override
  int answer(byte[] bytes, int offset, int length, StoredEvent event) {
    long span = rex.span(bytes, offset, length);
    if (span < 0) {
      return REMAINDER; // not matched, or undecided: the event's own value applies
    }
    return count(bytes, offset, span) ? HAND_ON : ANSWERED;
  }

  @Override
  void handOnDue() {
    handOn();
  }

  /** An event of a run: counted where the {@code rex} matches, the counts handed on when due. */
  @Override
  boolean answer(EventRun run, int e, byte[] bytes, int offset, int length) {
    long span = rex.span(bytes, offset, length);
    if (span < 0) {
      return false;
    }
    if (count(bytes, offset, span)) {
      elsewhere(handOn());
    }
    return true;
  }

  /**
   * Counts the value at {@code span} ({@code start << 32 | end}) of a text at {@code offset}; true
   * when the counts should be handed on now ({@link #handOn}): the table is full, or the slice was
   * just judged to send the rest of its events to pages ({@link #judge}).
   */
  private boolean count(byte[] bytes, int offset, long span) {
    int start = (int) (span >>> 32);
    countedRows++;
    boolean full = counts.add(bytes, offset + start, (int) span - start, 1);
    if (!judged && (full || countedRows >= JUDGED_AFTER)) {
      return judge() || full;
    }
    return full;
  }

  /**
   * Whether the keys met so far — the slice's first {@link #JUDGED_AFTER} matches, or fewer when
   * the table filled first — repeat too little to count here: more than {@value #DISTINCT_IN_EIGHT}
   * distinct keys in eight matches (session ids: ~99% distinct in 4,096 access-log lines; client
   * addresses ~46%; 4,096 draws from 15,000 equally likely keys ~87%: a field of fewer keys than
   * that is counted here, where a slice of up to 131,072 or 524,288 events meets each of them many
   * times). Counting keys met about once costs more than the page path (session 40: ~25% more
   * server CPU at 158k keys in 315k events, a key hashed and copied in the table, copied to the
   * hand-on's block and hashed again by the partial; the page path hashes it once), so the rest of
   * the slice goes there ({@link #paged}); once per slice.
   */
  private boolean judge() {
    judged = true;
    paged = KeyRepeats.tooFew(counts.size(), countedRows, DISTINCT_IN_EIGHT, 8);
    return paged;
  }

  /**
   * The counts so far into the partial as one page of intermediate state; the table emptied. Its
   * time is the aggregation stage's; returned so that a timed window can leave it out.
   */
  private long handOn() {
    if (countedRows == 0) {
      return 0;
    }
    long started = System.nanoTime();
    Page page = CountPages.values(field, counts.values(), counts.counts(), countedRows);
    partial.addIntermediateInput(page);
    counts.clear();
    for (int stage = 0; stage < statsAt; stage++) {
      stages.counted(stage, countedRows, 0);
    }
    long took = System.nanoTime() - started;
    stages.counted(statsAt, countedRows, took);
    answered += countedRows;
    countedRows = 0;
    return took;
  }

  /** The counts handed on before the remainder's last page. */
  @Override
  void finishing() {
    handOn();
  }

  /**
   * The table's memory given back, once: when the slice failed or its driver closed it early, the
   * counts still held are not handed on (the partial may be another slice's by now), as the
   * remainder's last page is not.
   */
  @Override
  void handBack() {
    counts.release();
  }

  @Override
  void reportAnswered(long events) {
    control.countedByRex(events);
  }
}
