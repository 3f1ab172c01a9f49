package io.quarry.server.search;

import io.quarry.codecs.store.EventRun;
import io.quarry.codecs.store.EventVisitor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the slices that answer some of their events themselves, over the decoded journal bytes,
 * share ({@link RexCounting}, {@link KeyValueStates}): every event they do not answer goes to the
 * page source they wrap ({@code remainder}, {@link EventPages}) exactly as without them; the
 * search's control is asked every {@value SearchControl#EVERY} events answered; and their time is
 * the extraction's ({@code fieldExtractionMs}) as {@link EventPages} times it — a block run with
 * one clock pair ({@link #runStarts}, {@link #runEnds}), less the time spent {@link #elsewhere} (a
 * hand-on to the aggregation, the aggregation stage's; the remainder's events, timed there: one in
 * {@value ExtractionClock#SAMPLE} of a run's timed and weighed, or each once the rest of the slice
 * goes there), an event read alone one in {@value ExtractionClock#SAMPLE} ({@link #clock}). When
 * the slice ends — finished, failed or closed early — the events answered here ({@link #answered})
 * count as matched and are reported ({@link #reportAnswered}), after the subclass's table is given
 * back ({@link #handBack}). Not thread-safe: one per slice.
 */
abstract class FusedScan implements EventVisitor {
  final EventVisitor remainder;
  final SearchControl control;
  final ExtractionClock clock = new ExtractionClock();
  private final AtomicLong matched;

  /** Events answered here since the slice began, counted as matched when it ends. */
  long answered;

  private int visited; // events answered here, for the control's stop checks and progress
  private long nanos; // the runs' extraction time
  private int remainders; // events of runs handed to the remainder, one in SAMPLE timed
  private long runStarted; // the run being read: when it began, and the time spent elsewhere
  private long elsewhere;
  private boolean finished;

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

  /** Whether the scan goes on after an event answered here: the control asked every so often. */
  final boolean checked() {
    return ++visited % SearchControl.EVERY != 0 || !control.readAndCheck(SearchControl.EVERY);
  }

  /** A run's reading begins: its clock started. */
  final void runStarts() {
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
  final boolean toRemainder(EventRun run, int e, boolean paged) {
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
  final void runEnds() {
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
