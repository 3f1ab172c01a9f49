package io.quarry.server.auth;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.plan.SearchPlan;
import io.quarry.server.audit.AuditTrail;
import io.quarry.server.audit.SearchAudit;
import io.quarry.server.search.SearchControl;
import io.quarry.server.search.SearchStats;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One search of one user from admission to its end: it holds one of the user's {@code
 * srchJobsQuota} slots, caps the search's time by {@code srchMaxTime}, and records the search in
 * the audit trail once, when it ends ({@link #ended}) or fails ({@link #failed}). Every search path
 * goes through one: the export endpoint, {@code /api/v1/search}, {@code /api/v1/fields}, and search
 * jobs (native and Splunk's), which hold theirs from submission, queued or running, to their end.
 */
public final class AdmittedSearch implements AutoCloseable {
  private final Access access;
  private final String query;
  private final String id;
  private final SearchQuotas.Slot slot;
  private final AuditTrail audit;
  private final long startedNanos = System.nanoTime();
  private final AtomicBoolean recorded = new AtomicBoolean();
  private volatile Duration planningCpu = Duration.ZERO;
  private volatile Duration planningElapsed = Duration.ZERO;

  private AdmittedSearch(
      Access access, String query, String id, SearchQuotas.Slot slot, AuditTrail audit) {
    this.access = access;
    this.query = query;
    this.id = id;
    this.slot = slot;
    this.audit = audit;
  }

  /**
   * Admits a search of {@code access}'s user under their quota.
   *
   * @param id the search's id in the audit trail (a job's id), or null for a new one
   * @throws io.quarry.server.http.ApiException 429 past the quota (the refusal is audited)
   */
  public static AdmittedSearch admit(
      Authenticator authenticator, Access access, String query, String id) {
    requireNonNull(access, "access is null");
    requireNonNull(query, "query is null");
    String searchId = id != null ? id : UUID.randomUUID().toString();
    try {
      return new AdmittedSearch(
          access, query, searchId, authenticator.quotas().admit(access), authenticator.audit());
    } catch (RuntimeException refused) {
      authenticator
          .audit()
          .record(SearchAudit.failed(access.user(), searchId, query, null, refused, Duration.ZERO));
      throw refused;
    }
  }

  /**
   * Admits a search if one of its user's slots is free, or answers null (nothing is refused or
   * audited): for a search job that waits for a slot ({@code search.queueOverQuota}).
   */
  public static AdmittedSearch tryAdmit(
      Authenticator authenticator, Access access, String query, String id) {
    requireNonNull(id, "id is null");
    SearchQuotas.Slot slot = authenticator.quotas().tryAdmit(requireNonNull(access));
    return slot == null
        ? null
        : new AdmittedSearch(access, requireNonNull(query), id, slot, authenticator.audit());
  }

  /** Records a search job that was cancelled or deleted while it waited for a slot. */
  public static void cancelledWhileWaiting(
      Authenticator authenticator, Access access, String query, String id) {
    authenticator
        .audit()
        .record(SearchAudit.cancelledBeforeStart(access.user(), id, query, null, Duration.ZERO));
  }

  public String id() {
    return id;
  }

  public Access access() {
    return access;
  }

  /**
   * Plans the search under this admission — subsearches run while planning, so they count against
   * the user's quota too — recording a failure (a query that does not parse, a missing capability)
   * in the audit trail.
   */
  public SearchPlan plan(java.util.function.Supplier<SearchPlan> planner) {
    long before = io.quarry.server.search.SearchCpu.threadNanos();
    long beforeWall = System.nanoTime();
    try {
      return planner.get();
    } catch (RuntimeException refused) {
      failed(null, refused);
      throw refused;
    } finally {
      planningCpu = Duration.ofNanos(io.quarry.server.search.SearchCpu.threadNanos() - before);
      planningElapsed = Duration.ofNanos(System.nanoTime() - beforeWall);
    }
  }

  /**
   * The CPU {@link #plan} spent on its thread (parsing, expanding, its subsearches), for the
   * search's {@code cpuMs}: the caller hands it to the search's control ({@code
   * SearchControl#planningCpu}).
   */
  public Duration planningCpu() {
    return planningCpu;
  }

  /**
   * The wall time {@link #plan} took, for the search's {@code elapsedMs}, which counts its planning
   * as its {@code cpuMs} does (handed with the CPU: {@code SearchControl#planning}).
   */
  public Duration planningElapsed() {
    return planningElapsed;
  }

  /** The time limit of this search: {@code requested}, at most the roles' {@code srchMaxTime}. */
  public Duration timeLimit(Duration requested) {
    return SearchQuotas.timeLimit(access, requested);
  }

  /** The search ran to its end, was finalized or cancelled, as {@code control} says. */
  public void ended(SearchPlan plan, SearchStats stats, SearchControl control) {
    String info =
        control != null && control.cancelled()
            ? "cancelled"
            : control != null && control.finalized() ? "finalized" : "completed";
    if (recorded.compareAndSet(false, true)) {
      audit.record(SearchAudit.ended(access.user(), id, query, plan, stats, info, elapsed()));
    }
  }

  /** The search (a job) was cancelled before it started. */
  public void cancelledBeforeStart(SearchPlan plan) {
    if (recorded.compareAndSet(false, true)) {
      audit.record(SearchAudit.cancelledBeforeStart(access.user(), id, query, plan, elapsed()));
    }
  }

  /** The search failed (after admission: planning, running, or the job pool refusing it). */
  public void failed(SearchPlan plan, Throwable error) {
    if (recorded.compareAndSet(false, true)) {
      audit.record(SearchAudit.failed(access.user(), id, query, plan, error, elapsed()));
    }
  }

  private Duration elapsed() {
    return Duration.ofNanos(System.nanoTime() - startedNanos);
  }

  /** Frees the user's slot. */
  @Override
  public void close() {
    slot.close();
  }
}
