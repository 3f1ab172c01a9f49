package io.quarry.server.jobs;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.ql.plan.SearchPlan;
import io.quarry.server.auth.Access;
import io.quarry.server.auth.AdmittedSearch;
import io.quarry.server.config.QuarryConfig;
import io.quarry.server.http.ApiException;
import io.quarry.server.search.SearchService;
import java.io.Closeable;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The search jobs of a server: at most {@code maxRunning} run at once on the job pool, up to {@code
 * maxQueued} more wait, and beyond that a new job is refused with 503 and Retry-After. At most
 * {@code maxJobs} are kept; a finished job is removed, and what its results held given back, {@code
 * ttl} after it was last looked at (every read of its status or results touches it): a reaper looks
 * every second, and a job past its TTL is gone for a reader even before the reaper came. A TTL a
 * client asks for is clamped to {@code maxTtl} (Splunk's {@code timeout}, {@code setttl}), so no
 * job outlives it unlooked-at. With {@code queueOverQuota}, a job whose user already runs their
 * {@code srchJobsQuota} searches waits ({@link #submitWaiting}, state {@code QUEUED}, at most
 * {@value #MAX_WAITING_PER_USER} per user) and starts, in the order submitted, once a slot is free
 * — looked for when a job ends and every second. A job holds its user's search slot ({@link
 * AdmittedSearch}) from submission to its end, and is audited when it ends. A user sees and
 * controls their own jobs; one with {@code admin_all_objects} (admin) every user's.
 */
public final class JobManager implements Closeable {
  private static final Logger LOG = Logger.getLogger(JobManager.class.getName());

  private final SearchService search;
  private final Clock clock;
  private final Duration defaultTtl;
  private final Duration maxTtl;
  private final int maxJobs;
  private final ThreadPoolExecutor runners;
  private final ScheduledExecutorService reaper;
  private final Map<String, SearchJob> jobs = new ConcurrentHashMap<>();
  private final boolean queueOverQuota;
  private final Map<SearchJob, WaitingJob> waiting = new java.util.LinkedHashMap<>(); // guarded

  /** Jobs one user may have waiting for a slot; past it a new one is refused (429). */
  public static final int MAX_WAITING_PER_USER = 20;

  public JobManager(
      SearchService search,
      Clock clock,
      int maxRunning,
      int maxQueued,
      int maxJobs,
      Duration defaultTtl,
      Duration maxTtl,
      boolean queueOverQuota) {
    this.queueOverQuota = queueOverQuota;
    this.search = requireNonNull(search, "search is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.maxTtl = requireNonNull(maxTtl, "maxTtl is null");
    this.defaultTtl = clamp(requireNonNull(defaultTtl, "defaultTtl is null"));
    this.maxJobs = maxJobs;
    AtomicInteger threads = new AtomicInteger();
    this.runners =
        new ThreadPoolExecutor(
            maxRunning,
            maxRunning,
            60,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(maxQueued),
            runnable -> {
              Thread thread = new Thread(runnable, "quarry-job-" + threads.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    this.reaper =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "quarry-job-reaper");
              thread.setDaemon(true);
              return thread;
            });
    reaper.scheduleWithFixedDelay(
        () -> {
          expire();
          startWaiting();
        },
        1,
        1,
        TimeUnit.SECONDS);
  }

  /** Whether a job past its user's quota waits for a slot rather than being refused. */
  public boolean queuesOverQuota() {
    return queueOverQuota;
  }

  /** The jobs of {@code user} that wait for a slot. */
  public synchronized int waiting(String user) {
    int count = 0;
    for (WaitingJob job : waiting.values()) {
      if (job.user().equals(user)) {
        count++;
      }
    }
    return count;
  }

  /**
   * Keeps a job that waits for one of its user's search slots (state {@code QUEUED}); it is planned
   * and run once one is free.
   *
   * @throws ApiException 503 when too many jobs are kept
   */
  public SearchJob submitWaiting(WaitingJob spec, String reason) {
    if (jobs.size() >= maxJobs) {
      expire();
      if (jobs.size() >= maxJobs) {
        throw busy("too many search jobs are kept (" + maxJobs + "); delete some or wait");
      }
    }
    SearchJob job =
        new SearchJob(
            spec.id(),
            spec.query(),
            spec.query(),
            null,
            spec.user(),
            clock.instant(),
            spec.timeLimit(),
            spec.ttl() != null ? clamp(spec.ttl()) : defaultTtl);
    job.keepIn(search.keptResultsAccount());
    job.waitFor(reason);
    synchronized (this) {
      jobs.put(job.id(), job);
      waiting.put(job, spec);
    }
    startWaiting(); // a slot may have been freed meanwhile
    return job;
  }

  /**
   * Starts the waiting jobs whose users have a free slot now, oldest first; one cancelled while it
   * waited ends as cancelled.
   */
  private synchronized void startWaiting() {
    var entries = waiting.entrySet().iterator();
    while (entries.hasNext()) {
      var entry = entries.next();
      SearchJob job = entry.getKey();
      WaitingJob spec = entry.getValue();
      if (job.cancelled()) {
        entries.remove();
        job.failed(null, clock.millis()); // ends as CANCELLED
        spec.cancelled().run();
        continue;
      }
      AdmittedSearch admitted = spec.admit().get();
      if (admitted == null) {
        continue; // this user still runs their quota; others may go
      }
      try {
        runners.execute(() -> planAndRun(job, spec, admitted));
        entries.remove();
      } catch (RejectedExecutionException full) {
        admitted.close();
        return; // the job pool is full: try again when a job ends
      }
    }
  }

  /** Plans an admitted waiting job (its subsearches run now, under its slot) and runs it. */
  private void planAndRun(SearchJob job, WaitingJob spec, AdmittedSearch admitted) {
    SearchPlan plan;
    try {
      plan = admitted.plan(spec.planner());
    } catch (RuntimeException e) {
      ApiException failure =
          e instanceof ApiException api
              ? api
              : new ApiException(
                  HttpResponseStatus.INTERNAL_SERVER_ERROR,
                  "SEARCH_FAILED",
                  "The search failed: " + e);
      job.failed(failure, clock.millis());
      admitted.close();
      return;
    }
    job.planned(plan, plan.expandedQuery().orElseGet(() -> expandedOrAsSent(job.query())));
    run(job, admitted);
  }

  public Duration defaultTtl() {
    return defaultTtl;
  }

  /** The longest TTL a job may have (search.maxJobTtlSeconds). */
  public Duration maxTtl() {
    return maxTtl;
  }

  /** A TTL a client asked for, at most {@link #maxTtl} and at least a second. */
  public Duration clamp(Duration ttl) {
    if (ttl.compareTo(maxTtl) > 0) {
      return maxTtl;
    }
    return ttl.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : ttl;
  }

  /**
   * Starts a job.
   *
   * @param admitted the admission of the job's search: its id is the job's, its user the owner; the
   *     job closes it when it ends (or here, when it cannot start)
   * @param timeLimit the most time it may read events (at most the server's maximum)
   * @param ttl how long it is kept after it was last looked at (at most the maximum TTL), or null
   *     for the default
   * @throws ApiException 503 when the job pool and its queue are full or too many jobs are kept
   */
  public SearchJob submit(
      String query, SearchPlan plan, AdmittedSearch admitted, Duration timeLimit, Duration ttl) {
    try {
      return start(query, plan, admitted, timeLimit, ttl);
    } catch (RuntimeException refused) {
      admitted.failed(plan, refused);
      admitted.close();
      throw refused;
    }
  }

  private SearchJob start(
      String query, SearchPlan plan, AdmittedSearch admitted, Duration timeLimit, Duration ttl) {
    if (jobs.size() >= maxJobs) {
      expire();
      if (jobs.size() >= maxJobs) {
        throw busy("too many search jobs are kept (" + maxJobs + "); delete some or wait");
      }
    }
    String id = admitted.id();
    String owner = admitted.access().user();
    SearchJob job =
        new SearchJob(
            id,
            query,
            plan.expandedQuery().orElseGet(() -> expandedOrAsSent(query)),
            plan,
            owner,
            clock.instant(),
            admitted.timeLimit(timeLimit),
            ttl != null ? clamp(ttl) : defaultTtl);
    job.keepIn(search.keptResultsAccount());
    jobs.put(id, job);
    try {
      runners.execute(() -> run(job, admitted));
    } catch (RejectedExecutionException e) {
      jobs.remove(id);
      throw busy("every search slot is busy and the queue is full; retry later");
    }
    return job;
  }

  /**
   * The query with macros expanded, as the plan was made a moment ago; should a macro have changed
   * in between so that it no longer expands, the query as sent (the plan is what runs).
   */
  private String expandedOrAsSent(String query) {
    try {
      return search.expand(query);
    } catch (io.quarry.ql.parser.QueryParseException changedMeanwhile) {
      return query;
    }
  }

  private void run(SearchJob job, AdmittedSearch admitted) {
    try {
      runAdmitted(job, admitted);
    } finally {
      if (queueOverQuota) {
        startWaiting(); // the slot this job held is free
      }
    }
  }

  private void runAdmitted(SearchJob job, AdmittedSearch admitted) {
    try (admitted) {
      if (job.cancelled()) {
        job.failed(null, clock.millis());
        admitted.cancelledBeforeStart(job.plan());
        return;
      }
      job.started();
      try {
        io.quarry.server.search.SearchStats stats =
            search.run(job.query(), job.plan(), job.timeLimit(), job.control(), job::page);
        job.succeeded(stats, clock.millis());
        admitted.ended(job.plan(), stats, job.control());
      } catch (ApiException e) {
        job.failed(e, clock.millis());
        admitted.failed(job.plan(), e);
      } catch (Exception | Error e) {
        LOG.log(Level.WARNING, "search job " + job.id() + " failed: " + job.query(), e);
        ApiException failure =
            new ApiException(
                HttpResponseStatus.INTERNAL_SERVER_ERROR,
                "SEARCH_FAILED",
                "The search failed: " + e);
        job.failed(failure, clock.millis());
        admitted.failed(job.plan(), failure);
      }
    }
  }

  /** The job, touched (its TTL starts again). */
  public Optional<SearchJob> get(String id) {
    SearchJob job = live(id);
    if (job != null) {
      job.touch(clock.millis());
    }
    return Optional.ofNullable(job);
  }

  /**
   * The job, or null when there is none or it is past its TTL (then it is removed here: a look
   * after the TTL must not bring it back before the reaper comes).
   */
  private SearchJob live(String id) {
    SearchJob job = jobs.get(id);
    if (job != null && expired(job, clock.millis())) {
      if (jobs.remove(id, job)) {
        job.release();
      }
      return null;
    }
    return job;
  }

  private static boolean expired(SearchJob job, long nowMillis) {
    return job.state().finished() && job.expiresAtMillis() <= nowMillis;
  }

  /** The job or a 404 naming it. */
  public SearchJob require(String id) {
    return get(id).orElseThrow(() -> notFound(id));
  }

  private static ApiException notFound(String id) {
    return new ApiException(
        HttpResponseStatus.NOT_FOUND,
        "JOB_NOT_FOUND",
        "No search job '" + id + "' (it may have expired)");
  }

  /**
   * A job a user may see and control: their own, or any with {@code admin_all_objects}.
   *
   * @throws ApiException 404 otherwise, the same answer as for a job that does not exist
   */
  public SearchJob require(String id, Access user) {
    SearchJob job = live(id);
    if (job == null || !visibleTo(job, user)) {
      throw notFound(id); // the same answer as for no job: another user's jobs are not revealed
    }
    job.touch(clock.millis()); // only its owner's (or an admin's) look keeps it alive
    return job;
  }

  /** Every job, newest first. */
  public List<SearchJob> list() {
    expire();
    List<SearchJob> all = new ArrayList<>(jobs.values());
    all.sort(Comparator.comparing(SearchJob::created).reversed());
    return all;
  }

  /** The jobs a user may see (every job with {@code admin_all_objects}), newest first. */
  public List<SearchJob> list(Access user) {
    List<SearchJob> all = list();
    all.removeIf(job -> !visibleTo(job, user));
    return all;
  }

  private static boolean visibleTo(SearchJob job, Access user) {
    return user.has(QuarryConfig.Role.ADMIN_ALL_OBJECTS) || user.user().equals(job.owner());
  }

  /** How many jobs are kept in a state ({@code RUNNING}, {@code DONE} …), for the metrics. */
  public long count(String state) {
    return jobs.values().stream().filter(job -> job.state().name().equals(state)).count();
  }

  /** Stops reading events and keeps what was computed. */
  public void finalizeJob(SearchJob job) {
    job.control().finalizeSearch();
  }

  /** Stops the job and discards its results; it stays listed as cancelled until it expires. */
  public void cancel(SearchJob job) {
    job.control().cancel();
    WaitingJob spec;
    synchronized (this) {
      spec = waiting.remove(job);
    }
    if (spec != null) { // it never started: it ends now
      job.failed(null, clock.millis());
      spec.cancelled().run();
    }
  }

  /** Cancels the job if it runs and forgets it. */
  public void delete(SearchJob job) {
    cancel(job);
    jobs.remove(job.id());
    job.release();
  }

  /** Sets a new TTL, counted from now, at most {@link #maxTtl}; returns the TTL set. */
  public Duration ttl(SearchJob job, Duration ttl) {
    Duration set = clamp(ttl);
    job.ttl(set, clock.millis());
    return set;
  }

  private void expire() {
    long now = clock.millis();
    jobs.values()
        .removeIf(
            job -> {
              boolean expired = expired(job, now);
              if (expired) {
                job.release();
              }
              return expired;
            });
  }

  private static ApiException busy(String message) {
    return new ApiException(HttpResponseStatus.SERVICE_UNAVAILABLE, "SEARCH_BUSY", message);
  }

  @Override
  public void close() {
    reaper.shutdownNow();
    synchronized (this) {
      waiting.keySet().forEach(job -> job.control().cancel());
      waiting.clear();
    }
    jobs.values().forEach(job -> job.control().cancel());
    // cancelled searches stop within 256 events; interrupting one in the middle of a refresh's
    // file I/O would close the index writer as a tragedy, so wait for them instead
    runners.shutdown();
    try {
      if (!runners.awaitTermination(30, TimeUnit.SECONDS)) {
        runners.shutdownNow();
      }
    } catch (InterruptedException e) {
      runners.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
