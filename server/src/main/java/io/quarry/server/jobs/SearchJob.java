package io.quarry.server.jobs;

import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.plan.SearchPlan;
import io.quarry.server.http.ApiException;
import io.quarry.server.search.SearchControl;
import io.quarry.server.search.SearchStats;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One search job: what was asked, where it is, and what it produced so far. Result pages are kept
 * as the search hands them over, so results can be read (and previewed) while it runs. Thread-safe:
 * the search thread appends, request threads read.
 */
public final class SearchJob {
  /** Where a job is; Splunk's {@code dispatchState} names. */
  public enum State {
    QUEUED,
    RUNNING,
    DONE,
    FAILED,
    CANCELLED;

    public boolean finished() {
      return this != QUEUED && this != RUNNING;
    }
  }

  private final String id;
  private final String query;
  private volatile String expandedQuery;
  private volatile SearchPlan plan; // null while it waits for a quota slot
  private volatile String waiting; // why it waits for a slot, or null
  private final String owner;
  private final Instant created;
  private final Duration timeLimit;
  private final SearchControl control = new SearchControl();
  private final CompletableFuture<Void> finished = new CompletableFuture<>();
  private final List<Page> pages = new ArrayList<>(); // guarded by this
  private long rows; // guarded by this
  private Schema schema; // guarded by this
  private volatile State state = State.QUEUED;
  private volatile long startedNanos;
  private volatile long finishedNanos;
  private volatile SearchStats stats;
  private volatile ApiException error;
  private volatile Duration ttl;
  private volatile long expiresAtMillis = Long.MAX_VALUE;

  SearchJob(
      String id,
      String query,
      String expandedQuery,
      SearchPlan plan,
      String owner,
      Instant created,
      Duration timeLimit,
      Duration ttl) {
    this.id = id;
    control.sid(id);
    this.query = query;
    this.expandedQuery = expandedQuery;
    this.plan = plan;
    this.owner = owner;
    this.created = created;
    this.timeLimit = timeLimit;
    this.ttl = ttl;
  }

  public String id() {
    return id;
  }

  /**
   * The search as run: {@link #query} with its search macros expanded ({@link #query} while it
   * waits to be planned).
   */
  public String expandedQuery() {
    return expandedQuery;
  }

  public String query() {
    return query;
  }

  /** The plan, or null while the job waits for one of its user's search slots. */
  public SearchPlan plan() {
    return plan;
  }

  /** Why the job waits for a search slot of its user, or null when it does not (or no longer). */
  public String waiting() {
    return waiting;
  }

  /** The job waits for a slot: its query is planned only once it has one. */
  void waitFor(String reason) {
    this.waiting = reason;
  }

  /** The job was admitted and planned: it runs next. */
  void planned(SearchPlan plan, String expandedQuery) {
    this.plan = plan;
    this.expandedQuery = expandedQuery;
    this.waiting = null;
  }

  public String owner() {
    return owner;
  }

  public Instant created() {
    return created;
  }

  Duration timeLimit() {
    return timeLimit;
  }

  SearchControl control() {
    return control;
  }

  public State state() {
    return state;
  }

  /** The costs of the finished search, or null while it runs. */
  public SearchStats stats() {
    return stats;
  }

  /** Why it failed, or null. */
  public ApiException error() {
    return error;
  }

  public boolean cancelled() {
    return control.cancelled();
  }

  public boolean finalized() {
    return control.finalized();
  }

  /** Events read from storage so far. */
  public long eventsRead() {
    return stats != null ? stats.eventsRead() : control.eventsRead();
  }

  /**
   * Time spent planning and running (so far, or in all), not the time queued: its planning's wall
   * time (its subsearches run then; handed on through {@link SearchControl#planning} as it starts
   * running) plus the time since it started, as its {@code elapsedMs} counts and its {@code cpuMs}
   * its planning's CPU; zero until it starts.
   */
  public Duration runDuration() {
    long start = startedNanos;
    if (start == 0) {
      return Duration.ZERO;
    }
    long end = finishedNanos != 0 ? finishedNanos : System.nanoTime();
    return Duration.ofNanos(end - start).plus(control.planningElapsed());
  }

  public Duration ttl() {
    return ttl;
  }

  /** Milliseconds since the epoch after which the job is removed; MAX_VALUE while it runs. */
  public long expiresAtMillis() {
    return expiresAtMillis;
  }

  /** Keeps the job for another TTL from {@code nowMillis} (once it has finished). */
  void touch(long nowMillis) {
    if (state.finished()) {
      expiresAtMillis = nowMillis + ttl.toMillis();
    }
  }

  void ttl(Duration ttl, long nowMillis) {
    this.ttl = ttl;
    touch(nowMillis);
  }

  void started() {
    startedNanos = System.nanoTime();
    state = State.RUNNING;
  }

  /**
   * Counts the results this job keeps in {@code account} (whose parent is the breaker over all
   * searches) until the job is deleted or expires; without it they are not counted.
   */
  void keepIn(io.quarry.plugin.api.data.MemoryAccount account) {
    this.kept = account;
  }

  /** Gives back what the kept results were counted for (deleted, expired or cancelled). */
  void release() {
    var account = kept;
    if (account != null) {
      account.close();
    }
  }

  private volatile io.quarry.plugin.api.data.MemoryAccount kept;

  /**
   * Keeps a result page.
   *
   * @throws io.quarry.plugin.api.data.MemoryLimitExceededException when the results kept by every
   *     job and the running searches would pass the breaker's limit (the search then fails with
   *     503)
   */
  synchronized void page(Page page) {
    if (control.cancelled()) {
      return;
    }
    var account = kept;
    if (account != null) {
      long bytes = 0;
      for (io.quarry.plugin.api.data.Block block : page.blocks()) {
        bytes += block.ramBytesUsed();
      }
      account.reserve(bytes, "the results job " + id + " keeps");
    }
    if (schema == null) {
      schema = page.schema();
    }
    pages.add(page);
    rows += page.positionCount();
  }

  void succeeded(SearchStats stats, long nowMillis) {
    this.stats = stats;
    finish(State.DONE, nowMillis);
  }

  void failed(ApiException error, long nowMillis) {
    this.error = error;
    finish(State.FAILED, nowMillis);
  }

  private void finish(State end, long nowMillis) {
    finishedNanos = System.nanoTime();
    waiting = null;
    if (control.cancelled() || end == State.FAILED) {
      synchronized (this) { // a cancelled or failed job's results are never served
        pages.clear();
        rows = 0;
      }
      release();
    }
    state = control.cancelled() ? State.CANCELLED : end;
    touch(nowMillis);
    finished.complete(null);
  }

  /** Waits for the job to finish; returns false when {@code timeout} passed first. */
  public boolean await(Duration timeout) throws InterruptedException {
    try {
      finished.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException("jobs complete normally", e);
    }
  }

  /** Result rows so far (of the preview while a batch aggregation runs; see {@link #schema}). */
  public synchronized long rows() {
    List<Page> preview = preview();
    if (preview != null) {
      long previewRows = 0;
      for (Page page : preview) {
        previewRows += page.positionCount();
      }
      return previewRows;
    }
    return rows;
  }

  /** The result columns, or null before the first page (of the results or of a preview). */
  public synchronized Schema schema() {
    if (schema == null) {
      List<Page> preview = preview();
      return preview == null || preview.isEmpty() ? null : preview.getFirst().schema();
    }
    return schema;
  }

  /**
   * While a batch aggregation runs and has handed over no page yet: what it would answer now (the
   * segment slices finished so far), rendered at most once a second; else null.
   */
  private List<Page> preview() { // guarded by this
    return pages.isEmpty() && state == State.RUNNING ? control.preview() : null;
  }

  /**
   * A slice of the results: the rows {@code [offset, offset + count)} as (page, position) pairs —
   * of the preview while a batch aggregation runs (see {@link #schema}).
   */
  public synchronized List<RowRef> slice(long offset, long count) {
    List<RowRef> slice = new ArrayList<>();
    long skip = offset;
    List<Page> preview = preview();
    for (Page page : preview != null ? preview : pages) {
      if (slice.size() >= count) {
        break;
      }
      int size = page.positionCount();
      if (skip >= size) {
        skip -= size;
        continue;
      }
      for (int position = (int) skip; position < size && slice.size() < count; position++) {
        slice.add(new RowRef(page, position));
      }
      skip = 0;
    }
    return slice;
  }

  /** One result row: a position in a page. */
  public record RowRef(Page page, int position) {}
}
