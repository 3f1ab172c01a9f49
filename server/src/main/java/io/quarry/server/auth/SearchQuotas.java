package io.quarry.server.auth;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.server.http.ApiException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The per-user search quotas of the roles, after Splunk's {@code authorize.conf}: at most {@code
 * srchJobsQuota} searches of one user at once — streamed searches and search jobs, queued or
 * running, counted until they finish — and no search of theirs reading events for longer than
 * {@code srchMaxTime}. Past the quota a new search is refused with 429 {@code SEARCH_QUOTA} and
 * {@code Retry-After} (Splunk queues it instead: a documented difference), so a client backs off
 * rather than piling up work — unless {@code search.queueOverQuota} is set, when a search job waits
 * for a slot instead ({@link #tryAdmit}, {@code jobs.JobManager}).
 */
public final class SearchQuotas {
  /** What a refused search is told to wait before trying again. */
  static final Duration RETRY_AFTER = Duration.ofSeconds(5);

  private final Map<String, Integer> running = new HashMap<>(); // guarded by this

  /**
   * Takes one of the user's search slots; close the slot when the search is over (or was never
   * started).
   *
   * @throws ApiException 429 with Retry-After when the user runs {@code srchJobsQuota} searches
   */
  public Slot admit(Access access) {
    requireNonNull(access, "access is null");
    synchronized (this) {
      int now = running.getOrDefault(access.user(), 0);
      int quota = access.searchJobsQuota();
      if (quota > 0 && now >= quota) {
        throw new ApiException(
            HttpResponseStatus.TOO_MANY_REQUESTS,
            "SEARCH_QUOTA",
            "user '"
                + access.user()
                + "' already runs "
                + now
                + " searches, the most their roles allow at once (srchJobsQuota "
                + quota
                + "); wait for one to finish, or cancel or delete a job",
            Map.of("user", access.user(), "quota", quota, "running", now),
            Map.of("Retry-After", Long.toString(RETRY_AFTER.toSeconds())));
      }
      running.merge(access.user(), 1, Integer::sum);
    }
    return new Slot(access.user());
  }

  /**
   * Takes one of the user's search slots if one is free; null when the user already runs {@code
   * srchJobsQuota} searches (nothing is refused or recorded).
   */
  public Slot tryAdmit(Access access) {
    requireNonNull(access, "access is null");
    synchronized (this) {
      int quota = access.searchJobsQuota();
      if (quota > 0 && running.getOrDefault(access.user(), 0) >= quota) {
        return null;
      }
      running.merge(access.user(), 1, Integer::sum);
    }
    return new Slot(access.user());
  }

  /** The searches {@code user} runs now (tests, metrics). */
  public synchronized int running(String user) {
    return running.getOrDefault(user, 0);
  }

  /**
   * The time limit of a search of {@code access}'s user: what they asked for, at most their roles'
   * {@code srchMaxTime}.
   */
  public static Duration timeLimit(Access access, Duration requested) {
    requireNonNull(requested, "requested is null");
    return access.searchMaxTime().filter(most -> most.compareTo(requested) < 0).orElse(requested);
  }

  private synchronized void release(String user) {
    running.computeIfPresent(user, (name, count) -> count <= 1 ? null : count - 1);
  }

  /** One admitted search; closing it (once, from any thread) frees the user's slot. */
  public final class Slot implements AutoCloseable {
    private final String user;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Slot(String user) {
      this.user = user;
    }

    @Override
    public void close() {
      if (closed.compareAndSet(false, true)) {
        release(user);
      }
    }
  }
}
