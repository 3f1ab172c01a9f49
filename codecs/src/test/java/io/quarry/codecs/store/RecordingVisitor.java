package io.quarry.codecs.store;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The tests' scan visitor that records what it is handed: a description of every event, event by
 * event or, when it takes runs, run by run, counted in one map that every slice's visitor shares.
 * It keeps no events.
 */
final class RecordingVisitor implements EventVisitor {
  private final Map<String, Long> seen;
  private final Function<StoredEvent, String> byEvent;
  private final BiFunction<EventRun, Integer, String> byRun; // null: takes no runs
  private final AtomicLong inRuns;

  private RecordingVisitor(
      Map<String, Long> seen,
      Function<StoredEvent, String> byEvent,
      BiFunction<EventRun, Integer, String> byRun,
      AtomicLong inRuns) {
    this.seen = seen;
    this.byEvent = byEvent;
    this.byRun = byRun;
    this.inRuns = inRuns;
  }

  /**
   * Visitors, one per slice, that count into {@code seen} each event as {@code byEvent} describes
   * it and each event of a run as {@code byRun} does (null: they take no runs); {@code inRuns}
   * counts the events handed in runs.
   */
  static Supplier<EventVisitor> recording(
      Map<String, Long> seen,
      Function<StoredEvent, String> byEvent,
      BiFunction<EventRun, Integer, String> byRun,
      AtomicLong inRuns) {
    return () -> new RecordingVisitor(seen, byEvent, byRun, inRuns);
  }

  /** Visitors that count each event into {@code seen} as {@code byEvent} describes it; no runs. */
  static Supplier<EventVisitor> recording(
      Map<String, Long> seen, Function<StoredEvent, String> byEvent) {
    return recording(seen, byEvent, null, new AtomicLong());
  }

  @Override
  public boolean visit(StoredEvent event) {
    seen.merge(byEvent.apply(event), 1L, Long::sum);
    return true;
  }

  @Override
  public boolean takesRuns() {
    return byRun != null;
  }

  @Override
  public boolean visit(EventRun run) {
    inRuns.addAndGet(run.size());
    for (int i = 0; i < run.size(); i++) {
      seen.merge(byRun.apply(run, i), 1L, Long::sum);
    }
    return true;
  }

  @Override
  public boolean keepsEvents() {
    return false;
  }
}
