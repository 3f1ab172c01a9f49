package io.quarry.server.search;

import io.quarry.codecs.store.AsciiText;
import io.quarry.codecs.store.EventRun;
import io.quarry.codecs.store.EventVisitor;
import io.quarry.codecs.store.StoredEvent;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the slices that answer some of their events themselves, over the decoded journal bytes,
 * share ({@link RexCounting}, {@link KeyValueStates}) — the scan's loop, of which each subclass
 * gives only its own steps: whether it takes a run at all ({@link #startsRun}) or an event read
 * alone ({@link #takesEvent}), how it answers an event whose text is ASCII ({@link #answer}), what
 * it does when a run's answers are over ({@link #runAnswered}, a batch flushed) or when its table
 * is due to be handed on ({@link #handOnDue}). Every event it does not answer goes to the page
 * source it wraps ({@code remainder}, {@link EventPages}) exactly as without it, and so does the
 * rest of the slice once it is {@link #paged} (its keys judged not to repeat enough); the search's
 * control is asked every {@value SearchControl#EVERY} events answered; and its time is the
 * extraction's ({@code fieldExtractionMs}) as {@link EventPages} times it — a block run with one
 * clock pair, less the time spent {@link #elsewhere} (a hand-on to the aggregation, the aggregation
 * stage's; the remainder's events, timed there: one in {@value ExtractionClock#SAMPLE} of a run's
 * timed and weighed, or each once the rest of the slice goes there), an event read alone one in
 * {@value ExtractionClock#SAMPLE} ({@link #clock}). When the slice ends — finished, failed or
 * closed early — the events answered here ({@link #answered}) count as matched and are reported
 * ({@link #reportAnswered}), after the subclass's table is given back ({@link #handBack}). Not
 * thread-safe: one per slice.
 */
abstract class FusedScan implements EventVisitor {
  final EventVisitor remainder;
  final SearchControl control;
  private final ExtractionClock clock = new ExtractionClock();
  private final AtomicLong matched;

  /** Events answered here since the slice began, counted as matched when it ends. */
  long answered;

  /** Whether the rest of the slice goes to the remainder, the page path (set by the subclass). */
  boolean paged;

  /** {@link #answer}'s for an event the remainder answers. */
  static final int REMAINDER = -1;

  /** {@link #answer}'s for an event answered here. */
  static final int ANSWERED = 0;

  /** {@link #answer}'s for an event answered here after which the table is due to be handed on. */
  static final int HAND_ON = 1;

  private int visited; // events answered here, for the control's stop checks and progress
  private long nanos; // the runs' extraction time
  private int remainders; // events of runs handed to the remainder, one in SAMPLE timed
  private long runStarted; // the run being read: when it began, and the time spent elsewhere
  private long elsewhere;
  private boolean finished;

  /**
   * Whether a search may have a fused scan at all, whatever its commands: no per-event filter, no
   * {@code tstats}-like indexed-only reading, its source on pages, no command reading the events'
   * own text ({@link PageShape#ownText}). Each subclass's {@code of} asks the rest.
   */
  static boolean scansBytes(PageShape shape, boolean filtered, boolean indexedFieldsOnly) {
    return !filtered && !indexedFieldsOnly && shape.onPages() && !shape.ownText();
  }

  FusedScan(SearchControl control, AtomicLong matched, EventVisitor remainder) {
    this.control = control;
    this.matched = matched;
    this.remainder = remainder;
  }

  @Override
  public final boolean takesRuns() {
    return true;
  }

  @Override
  public final boolean keepsEvents() {
    return remainder.keepsEvents();
  }

  /**
   * An event of a block not read by run, or of the event layout: answered here where the subclass
   * takes it and its text is ASCII ({@link #answer}, timed one in {@value ExtractionClock#SAMPLE}),
   * the table handed on after when due ({@link #handOnDue}, not timed); else the remainder's.
   */
  @Override
  public final boolean visit(StoredEvent event) {
    if (paged || !takesEvent(event) || !(event.rawText() instanceof AsciiText text)) {
      return remainder.visit(event);
    }
    long started = clock.start();
    int answer = answer(text.array(), text.offset(), text.length(), event);
    clock.stop(started);
    if (answer == REMAINDER) {
      return remainder.visit(event);
    }
    if (answer == HAND_ON) {
      handOnDue();
    }
    return checked();
  }

  /**
   * A run read event by event with one clock pair: each event whose text is ASCII offered to the
   * subclass ({@link #answer(EventRun, int, byte[], int, int)}), the others — and every event once
   * the slice is {@link #paged} — to the remainder; a run the subclass does not start ({@link
   * #startsRun}) goes to the remainder whole.
   */
  @Override
  public final boolean visit(EventRun run) {
    if (paged || !startsRun(run)) {
      return remainder.visit(run);
    }
    runStarts();
    boolean ascii = run.ascii();
    byte[] bytes = run.bytes();
    int size = run.size();
    int[] bounds = run.textBounds();
    int first = run.first();
    for (int e = 0; e < size; e++) {
      int offset = bounds[first + e];
      int length = bounds[first + e + 1] - offset;
      boolean going =
          !paged
                  && (ascii || AsciiText.isAscii(bytes, offset, length))
                  && answer(run, e, bytes, offset, length)
              ? checked()
              : toRemainder(run, e, paged);
      if (!going) {
        runAnswered(bytes);
        run.stoppedAfter(e + 1);
        runEnds();
        return false;
      }
    }
    runAnswered(bytes);
    runEnds();
    return true;
  }

  /**
   * Whether the subclass may answer some of {@code run}'s events (false: the run goes to the
   * remainder whole); it readies itself for the run.
   */
  abstract boolean startsRun(EventRun run);

  /**
   * Whether the subclass may answer {@code event}, read alone, from its ASCII text (false: the
   * remainder's).
   */
  abstract boolean takesEvent(StoredEvent event);

  /**
   * Answers event {@code e} of {@code run}, whose text {@code bytes[offset, offset + length)} is
   * ASCII: true when answered here, false when the remainder answers it. A table due to be handed
   * on is handed on here, its time passed to {@link #elsewhere}.
   */
  abstract boolean answer(EventRun run, int e, byte[] bytes, int offset, int length);

  /**
   * Answers {@code event}, read alone, whose text {@code bytes[offset, offset + length)} is ASCII:
   * {@link #REMAINDER}, {@link #ANSWERED} or {@link #HAND_ON} (then {@link #handOnDue} follows, out
   * of the extraction's time).
   */
  abstract int answer(byte[] bytes, int offset, int length, StoredEvent event);

  /** The table handed on, after an event read alone said it is due ({@link #HAND_ON}). */
  abstract void handOnDue();

  /** A run's answers are over (it ended or stopped): what they left pending is added now. */
  void runAnswered(byte[] bytes) {}

  /** Whether the scan goes on after an event answered here: the control asked every so often. */
  private boolean checked() {
    return ++visited % SearchControl.EVERY != 0 || !control.readAndCheck(SearchControl.EVERY);
  }

  /** A run's reading begins: its clock started. */
  private void runStarts() {
    runStarted = System.nanoTime();
    elsewhere = 0;
  }

  /** {@code nanos} of the run's time not the extraction's (a hand-on's). */
  final void elsewhere(long nanos) {
    elsewhere += nanos;
  }

  /**
   * Event {@code e} of {@code run} handed to the remainder, its time left out of the run's: timed
   * each when the rest of the slice goes there ({@code paged}), else one in {@value
   * ExtractionClock#SAMPLE} timed and weighed. Whether the scan goes on.
   */
  private boolean toRemainder(EventRun run, int e, boolean paged) {
    if (!paged && remainders++ % ExtractionClock.SAMPLE != 0) {
      return remainder.visit(run.event(e));
    }
    long handed = System.nanoTime();
    boolean going = remainder.visit(run.event(e));
    long took = System.nanoTime() - handed;
    elsewhere += paged ? took : took * ExtractionClock.SAMPLE;
    return going;
  }

  /** The run's reading is over: its time, less what was spent elsewhere, is the extraction's. */
  private void runEnds() {
    nanos += Math.max(0, System.nanoTime() - runStarted - elsewhere);
  }

  /**
   * What the subclass does when the slice finishes, before it is accounted for (a last hand-on).
   */
  void finishing() {}

  /** Gives back what the slice holds (its table), once, when the slice ends in any way. */
  abstract void handBack();

  /** Reports the events answered here to the search's control (the job's own counter). */
  abstract void reportAnswered(long events);

  /** The slice accounted for after {@link #finishing}, then the remainder finished. */
  @Override
  public final void finish() {
    try {
      finishing();
    } finally {
      account();
    }
    remainder.finish();
  }

  /**
   * Also when the slice failed or its driver closed it early: what was answered until then counts;
   * the remainder closed.
   */
  @Override
  public final void close() {
    if (!finished) {
      account();
    }
    remainder.close();
  }

  private void account() {
    finished = true;
    try {
      handBack();
    } finally {
      control.read(visited % SearchControl.EVERY);
      matched.addAndGet(answered);
      reportAnswered(answered);
      control.extracted(nanos + clock.take());
      answered = 0;
      nanos = 0;
    }
  }
}
