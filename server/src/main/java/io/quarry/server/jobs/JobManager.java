package io.quarry.server.jobs;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.ql.plan.SearchPlan;
import io.quarry.server.auth.Access;
import io.quarry.server.auth.AdmittedSearch;
import io.quarry.server.config.Role;
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
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The search jobs of a server: at most {@code maxRunning} run at once on the job pool, up to {@code
 * maxQueued} more wait, and beyond that a new job is refused with 503 and Retry-After. At most
 * {@code maxJobs} are kept; a finished job is removed, and what its results held given back, {@code
 * ttl} after it was last looked at (every read of its status or results touches it): a reaper looks
 * when the earliest TTL of a finished job ends, and not at all while no job is kept ({@link
 * JobReaper}); a job past its TTL is gone for a reader even before the reaper came. A TTL a client
 * asks for is clamped to {@code maxTtl} (Splunk's {@code timeout}, {@code setttl}), so no job
 * outlives it unlooked-at. With {@code queueOverQuota}, a job whose user already runs their {@code
 * srchJobsQuota} searches waits ({@link #submitWaiting}, state {@code QUEUED}, at most {@value
 * #MAX_WAITING_PER_USER} per user) and starts, in the order submitted, once a slot is free — looked
 * for when a job ends and every second while one waits. A job holds its user's search slot ({@link
 * AdmittedSearch}) from submission to its end, and is audited when it ends. A user sees and
 * controls their own jobs; one with {@code admin_all_objects} (admin) every user's.
 */
public final class JobManager implements Closeable {

  private final SearchService search;
  private final JobExecution execution;
  private final Clock clock;
  private final JobTtl ttls;
  private final int maxJobs;
  private final ThreadPoolExecutor runners;
  private final JobReaper reaper;
  private final Map<String, SearchJob> jobs = new ConcurrentHashMap<>();
  private final boolean queueOverQuota;
  private final WaitingJobs waiting = new WaitingJobs();

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
    this.execution = new JobExecution(search, clock);
    this.clock = requireNonNull(clock, "clock is null");
    this.ttls = new JobTtl(defaultTtl, maxTtl);
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
    this.reaper = new JobReaper(clock, this::look);
  }

  /**
   * The reaper's look: removes the expired jobs, starts the waiting ones that have a slot now;
   * returns when the next look is due ({@link JobReaper}): a second on while a job waits for a
   * slot, the earliest expiry of a finished job, at most the reaper's longest sleep on while a job
   * runs; {@link Long#MAX_VALUE} when no job is kept.
   */
  private long look() {
    expire();
    startWaiting();
    long now = clock.millis();
    long due = waiting.isEmpty() ? Long.MAX_VALUE : now + 1_000;
    for (SearchJob job : jobs.values()) {
      due =
          Math.min(
              due,
              job.state().finished() ? job.expiresAtMillis() : now + JobReaper.MAX_SLEEP_MILLIS);
    }
    return due;
  }

  /** Whether a job past its user's quota waits for a slot rather than being refused. */
  public boolean queuesOverQuota() {
    return queueOverQuota;
  }

  /** The jobs of {@code user} that wait for a slot. */
  public int waiting(String user) {
    return waiting.count(user);
  }

  /**
   * Keeps a job that waits for one of its user's search slots (state {@code QUEUED}); it is planned
   * and run once one is free.
   *
   * @param everyEventField whether its events list every field they have ({@link
   *     io.quarry.server.search.SearchControl#everyEventField}: Splunk's {@code adhoc_search_level}
   *     {@code smart} or {@code verbose})
   * @throws ApiException 503 when too many jobs are kept
   */
  public SearchJob submitWaiting(WaitingJob spec, String reason, boolean everyEventField) {
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
            ttls.of(spec.ttl()));
    job.keepIn(search.keptResultsAccount());
    if (everyEventField) {
      job.control().everyEventField();
    }
    job.waitFor(reason);
    jobs.put(job.id(), job);
    waiting.add(job, spec);
    startWaiting(); // a slot may have been freed meanwhile
    reaper.lookBy(clock.millis() + 1_000); // and looked for each second while it waits
    return job;
  }

  /** Starts the waiting jobs whose users have a free slot now, oldest first. */
  private void startWaiting() {
    waiting.startReady(
        (job, spec, admitted) -> {
          try {
            runners.execute(() -> run(job, admitted, spec));
            return true;
          } catch (RejectedExecutionException full) {
            return false;
          }
        },
        clock.millis());
  }

  /** The TTL of a job whose client names none (search.jobTtlSeconds). */
  public Duration defaultTtl() {
    return ttls.standard();
  }

  /**
   * Starts a job.
   *
   * @param admitted the admission of the job's search: its id is the job's, its user the owner; the
   *     job closes it when it ends (or here, when it cannot start)
   * @param timeLimit the most time it may read events (at most the server's maximum)
   * @param ttl how long it is kept after it was last looked at (at most the maximum TTL), or null
   *     for the default
   * @param everyEventField whether its events list every field they have (as {@link
   *     #submitWaiting})
   * @throws ApiException 503 when the job pool and its queue are full or too many jobs are kept
   */
  public SearchJob submit(
      String query,
      SearchPlan plan,
      AdmittedSearch admitted,
      Duration timeLimit,
      Duration ttl,
      boolean everyEventField) {
    try {
      return start(query, plan, admitted, timeLimit, ttl, everyEventField);
    } catch (RuntimeException refused) {
      admitted.failed(plan, refused);
      admitted.close();
      throw refused;
    }
  }

  private SearchJob start(
      String query,
      SearchPlan plan,
      AdmittedSearch admitted,
      Duration timeLimit,
      Duration ttl,
      boolean everyEventField) {
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
            execution.expandedOrAsSent(plan, query),
            plan,
            owner,
            clock.instant(),
            admitted.timeLimit(timeLimit),
            ttls.of(ttl));
    job.keepIn(search.keptResultsAccount());
    if (everyEventField) {
      job.control().everyEventField(); // before it runs
    }
    jobs.put(id, job);
    reaper.lookBy(clock.millis() + JobReaper.MAX_SLEEP_MILLIS); // the net under every kept job
    try {
      runners.execute(() -> run(job, admitted, null));
    } catch (RejectedExecutionException e) {
      jobs.remove(id);
      throw busy("every search slot is busy and the queue is full; retry later");
    }
    return job;
  }

  private void run(SearchJob job, AdmittedSearch admitted, WaitingJob waited) {
    try {
      if (waited != null) {
        execution.planAndRun(job, waited, admitted);
      } else {
        execution.run(job, admitted);
      }
    } finally {
      if (queueOverQuota) {
        startWaiting(); // the slot this job held is free
      }
      reaper.lookBy(job.expiresAtMillis()); // it ended: removed once its TTL passed unlooked-at
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
    return user.has(Role.ADMIN_ALL_OBJECTS) || user.user().equals(job.owner());
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
    WaitingJob spec = waiting.remove(job);
    if (spec != null) { // it never started: it ends now
      job.failed(null, clock.millis());
      spec.cancelled().run();
      reaper.lookBy(job.expiresAtMillis());
    }
  }

  /** Cancels the job if it runs and forgets it. */
  public void delete(SearchJob job) {
    cancel(job);
    jobs.remove(job.id());
    job.release();
  }

  /** Sets a new TTL, counted from now, at most the maximum; returns the TTL set. */
  public Duration ttl(SearchJob job, Duration ttl) {
    Duration set = ttls.of(requireNonNull(ttl, "ttl is null"));
    job.ttl(set, clock.millis());
    reaper.lookBy(job.expiresAtMillis()); // it may expire sooner than the reaper would look
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
    reaper.close();
    waiting.cancelAll();
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
