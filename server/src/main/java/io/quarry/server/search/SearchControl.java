package io.quarry.server.search;

import io.quarry.plugin.api.data.Page;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Steering and watching one running search: its time limit, a request to finalize (stop reading
 * events and answer with what was computed, like reaching the time limit) or to cancel (stop; the
 * caller discards the answer), and progress counters the scan updates as it goes. Scan threads
 * check it every {@value #EVERY} events, so a search stops within a few milliseconds.
 */
public final class SearchControl {
  /** How many events a scan reads between checks. */
  static final int EVERY = 256;

  enum Stop {
    NONE,
    TIME_LIMIT,
    FINALIZED,
    CANCELLED,
    FAILED
  }

  private final long startedNanos = System.nanoTime();
  private volatile long deadlineNanos;
  private volatile Duration limit;
  private volatile Stop stop = Stop.NONE;
  private final LongAdder eventsRead = new LongAdder();
  private final LongAdder extractionNanos = new LongAdder();
  private final LongAdder eventsByRun = new LongAdder();
  private final LongAdder countedByRex = new LongAdder();
  private final LongAdder aggregatedByKeyValue = new LongAdder();
  private final LongAdder keyTablesHandedOnEarly = new LongAdder();
  private final LongAdder pagesByOrdinal = new LongAdder();
  private final LongAdder pagesByEntry = new LongAdder();
  private final LongAdder pagesInPlace = new LongAdder();
  private final LongAdder groupsHandedWhole = new LongAdder();
  private final LongAdder blocksSelectedByWords = new LongAdder();
  private final LongAdder blocksCountedByCodePairs = new LongAdder();

  private volatile boolean everyEventField;
  private volatile Duration planningCpu = Duration.ZERO;
  private volatile Duration planningElapsed = Duration.ZERO;

  /**
   * The CPU and the wall time planning this search spent before it ran (its parse, expansion and
   * subsearches, measured by the caller: {@code auth.AdmittedSearch#plan}); the search's {@code
   * cpuMs} adds the CPU and its {@code elapsedMs} the wall time, so that its CPU is never more than
   * its elapsed time on every core.
   */
  public SearchControl planning(Duration cpu, Duration elapsed) {
    this.planningCpu = java.util.Objects.requireNonNull(cpu, "cpu is null");
    this.planningElapsed = java.util.Objects.requireNonNull(elapsed, "elapsed is null");
    return this;
  }

  /** The wall time planning this search spent, zero when its caller did not measure it. */
  public Duration planningElapsed() {
    return planningElapsed;
  }

  /** The CPU planning this search spent, zero when its caller did not measure it. */
  public Duration planningCpu() {
    return planningCpu;
  }

  /**
   * The answer's events carry every field they have, their search-time extractions included (by
   * default only the fields an event holds without extraction: {@code _raw} and the index-time ones
   * — a client reads the rest from {@code _raw}). A subsearch's rows ask for this: the commands
   * after {@code append}, {@code join} or {@code map} read them as rows, with no {@code _raw} to
   * extract from again.
   */
  public SearchControl everyEventField() {
    everyEventField = true;
    return this;
  }

  boolean everyEventFieldAsked() {
    return everyEventField;
  }

  private volatile String sid = "";

  /** The search's id ({@code addinfo}'s {@code info_sid}): its admission's, its job's. */
  public SearchControl sid(String id) {
    this.sid = java.util.Objects.requireNonNull(id, "id is null");
    return this;
  }

  /** The search's id, {@code ""} when none was given. */
  public String sid() {
    return sid;
  }

  private volatile boolean summaryLater;

  /**
   * The search's summary line is logged by the caller once the client has its answer ({@link
   * SearchService#logSummary}), not by {@code SearchService.run} before it returns: the console
   * handler writes and flushes that line on the searching thread, before the answer's last line.
   */
  public SearchControl summaryLoggedLater() {
    summaryLater = true;
    return this;
  }

  boolean summaryLoggedLaterAsked() {
    return summaryLater;
  }

  private volatile java.util.function.BooleanSupplier outerStopped = () -> false;

  /**
   * Also finalizes this search when {@code outerStopped} says so: a search run while another runs
   * ({@code map}'s) ends with the search holding it — cancelled, finalized or past its time limit —
   * answering with what it read.
   */
  public SearchControl stopWhen(java.util.function.BooleanSupplier outerStopped) {
    this.outerStopped = java.util.Objects.requireNonNull(outerStopped, "outerStopped is null");
    return this;
  }

  /** A control whose time limit is set by the search service when the search starts. */
  public SearchControl() {
    this.limit = null;
  }

  void limit(Duration limit) {
    this.limit = limit;
    this.deadlineNanos = startedNanos + limit.toNanos();
  }

  Duration limit() {
    return limit;
  }

  /** Stop reading events; the search answers with what it computed so far. */
  public void finalizeSearch() {
    if (stop == Stop.NONE) {
      stop = Stop.FINALIZED;
    }
  }

  /** Stop as soon as possible; what the search computed is to be discarded. */
  public void cancel() {
    stop = Stop.CANCELLED;
  }

  public boolean cancelled() {
    return stop == Stop.CANCELLED;
  }

  /**
   * Stop because the search failed: its other threads stop at their next check, and it is not taken
   * for a cancellation by whoever watches it (a job shows FAILED with its error).
   */
  void failed() {
    if (stop != Stop.CANCELLED) {
      stop = Stop.FAILED;
    }
  }

  public boolean finalized() {
    return stop == Stop.FINALIZED;
  }

  private volatile boolean previewAsked;

  /**
   * Whether anyone asked for a preview of this search (a job's results while it runs): until then a
   * batch aggregation need not merge its partials before the end.
   */
  boolean previewAsked() {
    return previewAsked;
  }

  /** Renders a preview of a running batch aggregation, or null when there is none. */
  private volatile Supplier<List<Page>> previewer;

  private List<Page> lastPreview; // guarded by this
  private long lastPreviewNanos; // guarded by this

  /** Rendering a preview costs a merge-free pass over every group: at most one per this. */
  private static final long PREVIEW_EVERY_NANOS = 1_000_000_000L;

  /** Sets (or, with null, removes and forgets) how the running search renders its preview. */
  synchronized void previewer(Supplier<List<Page>> previewer) {
    this.previewer = previewer;
    if (previewer == null) {
      lastPreview = null; // a finished job keeps its results, not its last preview
    }
  }

  /**
   * The results a running batch aggregation would give now (the slices finished so far), or null
   * when the search has no such preview (not started, not an aggregation that previews, or done).
   * Rendered at most once a second; callers in between get the last rendering.
   */
  public synchronized List<Page> preview() {
    previewAsked = true;
    var render = previewer;
    if (render == null) {
      return null;
    }
    long now = System.nanoTime();
    if (lastPreview == null || now - lastPreviewNanos > PREVIEW_EVERY_NANOS) {
      lastPreview = render.get();
      lastPreviewNanos = now;
    }
    return lastPreview;
  }

  /** Events read from storage so far, over every scan thread (updated every {@value #EVERY}). */
  public long eventsRead() {
    return eventsRead.sum();
  }

  /** Counts events read without checking whether to stop (a scan's last few). */
  void read(int events) {
    eventsRead.add(events);
  }

  /**
   * Whether work in progress should end now: cancelled, finalized, or past the time limit (noted
   * here as it is in {@link #readAndCheck}). Asked by long-running work inside one event — a user's
   * regular expression — so a search over its limit gives its threads back within milliseconds.
   */
  public boolean shouldStop() {
    if (stop != Stop.NONE) {
      return true;
    }
    if (outerStopped.getAsBoolean()) {
      finalizeSearch();
      return true;
    }
    if (limit != null && System.nanoTime() - deadlineNanos > 0) {
      stop = Stop.TIME_LIMIT;
      return true;
    }
    return false;
  }

  /** Called by a scan every {@value #EVERY} events: counts them and says whether to stop. */
  boolean readAndCheck(int events) {
    eventsRead.add(events);
    return shouldStop();
  }

  boolean stoppedByTimeLimit() {
    return stop == Stop.TIME_LIMIT;
  }

  /** What an answer says about a search that stopped early: finalized, or at its time limit. */
  List<String> stopMessages() {
    List<String> messages = new java.util.ArrayList<>();
    if (finalized()) {
      messages.add("search finalized: results cover only the events read until then");
    }
    if (stoppedByTimeLimit()) {
      messages.add(
          "search stopped after its time limit of "
              + io.quarry.ql.exec.Values.toText(limit().toNanos() / 1e9)
              + " s (max_time, search.maxTimeSeconds); results cover only the events read until"
              + " then");
    }
    return messages;
  }

  /** Adds search-time field extraction time (estimated by an {@link ExtractionClock}). */
  void extracted(long nanos) {
    extractionNanos.add(nanos);
  }

  /** Adds events a page source put on pages by block runs ({@code EventPages}). */
  void byRun(long events) {
    eventsByRun.add(events);
  }

  /**
   * Adds events a scan counted by a fused {@code rex}'s value, no page made ({@code RexCounting}).
   */
  void countedByRex(long events) {
    countedByRex.add(events);
  }

  /** The events counted by a fused {@code rex}'s value so far, over every thread of the search. */
  long countedByRex() {
    return countedByRex.sum();
  }

  /**
   * Adds events a scan aggregated by a key=value field's value itself, no page made ({@code
   * KeyValueStates}).
   */
  void aggregatedByKeyValue(long events) {
    aggregatedByKeyValue.add(events);
  }

  /** The events aggregated by a key=value field in the scan so far, over every thread. */
  long aggregatedByKeyValue() {
    return aggregatedByKeyValue.sum();
  }

  /**
   * Adds {@code tables} of a key=value scan handed on beside its last slices ({@link
   * ScanPaths#keyTablesHandedOnEarly}).
   */
  void keyTablesHandedOnEarly(int tables) {
    keyTablesHandedOnEarly.add(tables);
  }

  /** {@link ScanPaths#keyTablesHandedOnEarly} so far. */
  long keyTablesHandedOnEarly() {
    return keyTablesHandedOnEarly.sum();
  }

  /** The events put on pages by block runs so far, over every thread of the search. */
  long eventsByRun() {
    return eventsByRun.sum();
  }

  /** Counts {@code pages} of a {@code stats … by} grouped by segment ordinal. */
  void byOrdinal(long pages) {
    pagesByOrdinal.add(pages);
  }

  /** The pages grouped by segment ordinal so far ({@link SearchStats#pagesByOrdinal}). */
  long pagesByOrdinal() {
    return pagesByOrdinal.sum();
  }

  /**
   * Counts {@code pages} of a {@code stats … by} whose groups were kept by dictionary entry, {@code
   * inPlace} of them added to states kept a group per entry.
   */
  void byEntry(long pages, long inPlace, long handedWhole) {
    pagesByEntry.add(pages);
    pagesInPlace.add(inPlace);
    groupsHandedWhole.add(handedWhole);
  }

  /** The groups handed over whole so far ({@link SearchStats#groupsHandedWhole}). */
  long groupsHandedWhole() {
    return groupsHandedWhole.sum();
  }

  /**
   * Counts blocks counted from their value codes: {@code byWords} whose filter's events were
   * selected sixteen codes a word, {@code byCodePairs} counted by their pairs of codes.
   */
  void blocksByCodes(long byWords, long byCodePairs) {
    blocksSelectedByWords.add(byWords);
    blocksCountedByCodePairs.add(byCodePairs);
  }

  /** {@link SearchStats#blocksSelectedByWords} so far. */
  long blocksSelectedByWords() {
    return blocksSelectedByWords.sum();
  }

  /** {@link SearchStats#blocksCountedByCodePairs} so far. */
  long blocksCountedByCodePairs() {
    return blocksCountedByCodePairs.sum();
  }

  /** The pages whose groups were kept by entry so far ({@link SearchStats#pagesByEntry}). */
  long pagesByEntry() {
    return pagesByEntry.sum();
  }

  /** The pages added in place so far ({@link SearchStats#pagesInPlace}). */
  long pagesInPlace() {
    return pagesInPlace.sum();
  }

  /** The scan's fast-path counters so far ({@link ScanPaths}), over every thread of the search. */
  ScanPaths paths() {
    return new ScanPaths(
        eventsByRun(),
        pagesByOrdinal(),
        pagesByEntry(),
        pagesInPlace(),
        groupsHandedWhole(),
        blocksSelectedByWords(),
        blocksCountedByCodePairs(),
        countedByRex(),
        aggregatedByKeyValue(),
        keyTablesHandedOnEarly());
  }

  /** The search-time field extraction time so far, over every thread of the search. */
  java.time.Duration extraction() {
    return java.time.Duration.ofNanos(extractionNanos.sum());
  }
}
