package io.quarry.server.search;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.engine.aggregation.CountPages;
import io.quarry.ql.engine.aggregation.HashAggregationOperator;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.engine.aggregation.TimeExtremeStates;
import io.quarry.ql.exec.MemoryTracker;
import io.quarry.ql.exec.StageStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The per-key state tables ({@link BytesCounts}: timed where the {@code stats} reads {@code _time},
 * else counts alone, half the bytes a key) of a search whose scan aggregates a key=value field
 * itself ({@link KeyValueStates}), about one per search thread, as {@link PageAggregation} keeps
 * its partials: a segment slice takes an idle table (or makes one), adds its events' states and
 * puts it back, so a table outlives its slices — a slice of 131,072 events meets most of a session
 * id's ~50 events only in other slices; kept over a thread's slices, the 200,000 keys of the 10M
 * access log are each met ~19 times per table before they are handed on. A table's states go to the
 * final aggregation ({@link TimeExtremeStates#page}, or for counts alone {@link CountPages#groups};
 * under its lock) when it holds {@link #MAX_KEYS} keys, when it is put back over a second after its
 * last hand-on while a preview is asked (as {@link PageAggregation} merges partials), and all of
 * them when the scan is over ({@link #drain}). Each table's memory is charged to its own tracker of
 * the aggregation's stage as it grows, given back once: when drained, or by {@link #release} when
 * the search fails.
 */
final class KeyStateTables {
  /** The most keys a table holds before it is handed on: 200,000 session ids fit in one. */
  static final int MAX_KEYS = 1 << 18;

  private static final long HAND_ON_EVERY_NANOS = 1_000_000_000L;

  /**
   * The keyed events a table takes since its last hand-on before it judges them ({@link #judge}):
   * over the slices it lived through, as its keys repeat only across slices.
   */
  static final int JUDGED_AFTER = 1 << 16;

  /**
   * Of every sixteen keyed events judged, more distinct keys than this mean keys do not repeat: a
   * nearly unique field (100%), not the 10M log's session ids (65,536 events drawn over 200,000
   * ids: ~85% distinct), whose table pays.
   */
  static final int DISTINCT_IN_SIXTEEN = 15;

  private volatile boolean paged; // a table judged its keys not to repeat: the rest to pages

  /** One table and what it held since it was last handed on. */
  static final class Held {
    final BytesCounts counts;
    long rows; // events added since the last hand-on, with the key or without
    long keyed; // of them, those with the key: the table's counts summed
    boolean judged; // since the last hand-on ({@link KeyStateTables#judge})
    long handedOn = System.nanoTime(); // when last handed on (made: as if then)

    private Held(BytesCounts counts) {
      this.counts = counts;
    }
  }

  private final String field;
  private final PageAggregator total;
  private final boolean timed;
  private final Supplier<MemoryTracker> memory;
  private final BooleanSupplier previewAsked;
  private final StageStats stages;
  private final int statsAt;
  private final Queue<Held> idle = new ConcurrentLinkedQueue<>();
  private final Set<Held> all = ConcurrentHashMap.newKeySet();

  /**
   * Tables of {@code field}'s keys, handed on into {@code total}; {@code timed}: they keep {@code
   * _time} extremes; each charged to a tracker from {@code memory}; the hand-ons timed as the
   * aggregation's stage {@code statsAt} of {@code stages}.
   */
  KeyStateTables(
      String field,
      PageAggregator total,
      boolean timed,
      Supplier<MemoryTracker> memory,
      BooleanSupplier previewAsked,
      StageStats stages,
      int statsAt) {
    this.field = field;
    this.total = total;
    this.timed = timed;
    this.memory = memory;
    this.previewAsked = previewAsked;
    this.stages = stages;
    this.statsAt = statsAt;
  }

  /** Whether the tables keep {@code _time} extremes (else counts only). */
  boolean timed() {
    return timed;
  }

  /**
   * Whether a table judged its keys not to repeat ({@link #judge}): the search's events not yet
   * added go to the page path, every thread's, for the rest of the search.
   */
  boolean paged() {
    return paged;
  }

  /**
   * Judges {@code held} once it has taken {@value #JUDGED_AFTER} keyed events since its last
   * hand-on (all of them added to its counts): more than {@value #DISTINCT_IN_SIXTEEN} sixteenths
   * distinct keys — a table that costs more than pages (a new key hashed and copied in, copied to
   * the hand-on's page, hashed again by the aggregation) — send the rest of the search to pages.
   * Returns whether it did.
   */
  boolean judge(Held held) {
    if (held.judged || held.keyed < JUDGED_AFTER) {
      return false;
    }
    held.judged = true;
    if (KeyRepeats.tooFew(held.counts.size(), held.keyed, DISTINCT_IN_SIXTEEN, 16)) {
      paged = true;
      return true;
    }
    return false;
  }

  /** A table for one slice. */
  Held take() {
    Held held = idle.poll();
    if (held == null) {
      held = new Held(new BytesCounts(memory.get(), timed, MAX_KEYS));
      all.add(held);
    }
    return held;
  }

  /** A slice ended with {@code held}: handed on first when a preview wants to see it. */
  void put(Held held) {
    if (held.rows > 0
        && System.nanoTime() - held.handedOn > HAND_ON_EVERY_NANOS
        && previewAsked.getAsBoolean()) {
      handOn(held);
    }
    idle.add(held);
  }

  /** Set by {@link #release}: no hand-on adds to the total after it (guarded by the total). */
  private boolean released;

  /**
   * The table's states into the final aggregation as one page; the table emptied. Returns the
   * nanoseconds it took (the aggregation stage's time), for a timed window to leave out.
   */
  long handOn(Held held) {
    return Math.max(0, handOn(held, false));
  }

  /** What {@link #handOn(Held, boolean)} returns when it added nothing to the total. */
  private static final long NOTHING_HANDED_ON = -1;

  /**
   * As {@link #handOn(Held)}; {@code last}: the table is not used again, its memory given back
   * before its states grow the final aggregation's groups (the table and the groups its keys make
   * are not charged at once: a search the page path answers under the limit is answered here too).
   * Returns {@link #NOTHING_HANDED_ON} when the table was empty or the tables released.
   */
  private long handOn(Held held, boolean last) {
    // rows are counted when a batch is collected, keys added when it is flushed: a table filled
    // mid-batch is handed on with the whole batch's rows, and the rest of the batch lands in it
    // after (rows 0, keys held) — states that must still be handed on
    if (held.rows == 0 && held.counts.size() == 0) {
      if (last) {
        held.counts.release();
      }
      return NOTHING_HANDED_ON;
    }
    long started = System.nanoTime();
    BytesCounts counts = held.counts;
    int size = counts.size();
    List<Page> pages = new ArrayList<>(size / TimeExtremeStates.BATCH + 1);
    for (int from = 0; from < size; from += TimeExtremeStates.BATCH) {
      int to = Math.min(size, from + TimeExtremeStates.BATCH);
      pages.add(
          timed
              ? TimeExtremeStates.page(
                  field,
                  counts.values(from, to),
                  counts.counts(from, to),
                  counts.minTimes(from, to),
                  counts.maxTimes(from, to))
              : CountPages.groups(
                  List.of(field), List.of(counts.values(from, to)), counts.counts(from, to)));
    }
    if (last) {
      counts.release(); // the pages hold the states now
    }
    synchronized (total) {
      if (released) {
        // a slice that ended after an interrupted scan stopped waiting for it: the total may be
        // closed, and groups added to it now would never be given back
        return NOTHING_HANDED_ON;
      }
      if (total instanceof HashAggregationOperator hash) {
        hash.reserveGroups(size); // its key hash grown once, not doubled through the inserts
      }
      for (Page page : pages) {
        total.addIntermediateInput(page);
      }
    }
    if (!last) {
      counts.clear();
    }
    long took = System.nanoTime() - started;
    for (int stage = 0; stage < statsAt; stage++) {
      stages.counted(stage, held.rows, 0);
    }
    stages.counted(statsAt, held.rows, took);
    held.rows = 0;
    held.keyed = 0;
    held.judged = false;
    held.handedOn = System.nanoTime();
    return took;
  }

  /**
   * Every table no slice holds now handed on for good, its memory given back: called when no slice
   * of the scan is left to start ({@code ScanSlice.noSliceLeft}), so a thread whose last slice
   * ended hands its table on beside the other threads' last slices instead of in {@link #drain},
   * after the scan, on one thread (session 46). A slice takes its table when it is made ({@link
   * KeyValueStates}), before the scan counts it started, so none is left to take an idle table
   * then: none of them would have been used again (until session 47 a slice took its table at its
   * first answered event, and one just started could find its thread's table handed on here and
   * make a new one, its keys merged twice). Returns how many of them handed states on: not an empty
   * table (every slice takes one when made, and may put it back as it was), nor one after {@link
   * #release}, which adds nothing to the total.
   */
  int handOnIdle() {
    int handed = 0;
    for (Held held = idle.poll(); held != null; held = idle.poll()) {
      if (handOn(held, true) != NOTHING_HANDED_ON) {
        handed++;
      }
      all.remove(held); // after: a hand-on that failed leaves it to release
    }
    return handed;
  }

  /** The scan is over (no table in use): every table handed on, and its memory given back. */
  void drain() {
    try {
      for (Held held : all) {
        handOn(held, true);
      }
    } finally {
      release();
    }
  }

  /**
   * Gives back every table's memory (once each); what they still hold is dropped, and a hand-on
   * that comes after (a slice still running when an interrupted scan stopped waiting) adds nothing
   * to the total, which its caller may close next.
   */
  void release() {
    synchronized (total) {
      released = true;
    }
    for (Held held : all) {
      held.counts.release();
    }
    all.clear();
    idle.clear();
  }
}
