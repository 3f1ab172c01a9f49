package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.plan.SearchPlan;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.http.ApiException;
import io.quarry.server.jobs.JobManager;
import io.quarry.server.jobs.SearchJob;
import io.quarry.server.search.SearchService;
import java.time.Duration;

/**
 * How a search job is submitted, for every route that starts one (the native job API, Splunk's
 * search jobs and saved-search dispatch): the user admitted against their {@code srchJobsQuota} (or
 * queued for a slot), the query planned as the user may run it, the job handed to the {@link
 * JobManager}.
 */
final class JobSubmission {
  private final Authenticator authenticator;
  private final SearchService search;
  private final JobManager jobs;

  JobSubmission(Authenticator authenticator, SearchService search, JobManager jobs) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.search = requireNonNull(search, "search is null");
    this.jobs = requireNonNull(jobs, "jobs is null");
  }

  /**
   * Plans and submits a job; a query that does not parse is a 400 naming where, a user past their
   * {@code srchJobsQuota} a 429 — or, with {@code search.queueOverQuota}, a job that waits for a
   * slot (up to {@link JobManager#MAX_WAITING_PER_USER} of the user's; past that, the 429).
   */
  SearchJob submit(
      io.quarry.server.auth.Access user,
      String query,
      String earliest,
      String latest,
      Duration timeLimit,
      Duration ttl) {
    return submit(user, query, earliest, latest, timeLimit, ttl, false, false);
  }

  /**
   * {@link #submit}, refusing when {@code readOnly} a query that writes as it is planned (400
   * {@code SEARCH_WRITES}), the job's events listing every field they have where {@code
   * everyEventField} (Splunk's {@code adhoc_search_level}, {@link SearchLevel}).
   */
  SearchJob submit(
      io.quarry.server.auth.Access user,
      String query,
      String earliest,
      String latest,
      Duration timeLimit,
      Duration ttl,
      boolean readOnly,
      boolean everyEventField) {
    // admitted before planning: subsearches run while the query is planned
    io.quarry.server.auth.AdmittedSearch admitted = null;
    if (jobs.queuesOverQuota() && jobs.waiting(user.user()) < JobManager.MAX_WAITING_PER_USER) {
      String id = java.util.UUID.randomUUID().toString();
      admitted = io.quarry.server.auth.AdmittedSearch.tryAdmit(authenticator, user, query, id);
      if (admitted == null) {
        try { // a query that does not parse is refused now, not once it had its turn
          search.checkSyntax(query);
        } catch (io.quarry.ql.parser.QueryParseException e) {
          ApiException refused = QueryErrors.of(e);
          authenticator
              .audit()
              .record(
                  io.quarry.server.audit.SearchAudit.failed(
                      user.user(), id, query, null, refused, Duration.ZERO));
          throw refused;
        }
        return jobs.submitWaiting(
            new io.quarry.server.jobs.WaitingJob(
                id,
                user.user(),
                query,
                io.quarry.server.auth.SearchQuotas.timeLimit(
                    user, timeLimit != null ? timeLimit : search.maxTime()),
                ttl,
                () -> io.quarry.server.auth.AdmittedSearch.tryAdmit(authenticator, user, query, id),
                () -> SearchRequest.plan(search, user, query, earliest, latest, false, readOnly),
                () ->
                    io.quarry.server.auth.AdmittedSearch.cancelledWhileWaiting(
                        authenticator, user, query, id)),
            "waiting for one of the searches of user '"
                + user.user()
                + "' to end: their roles allow "
                + user.searchJobsQuota()
                + " at once (srchJobsQuota)",
            everyEventField);
      }
    }
    if (admitted == null) {
      admitted = io.quarry.server.auth.AdmittedSearch.admit(authenticator, user, query, null);
    }
    SearchPlan plan;
    try {
      plan =
          admitted.plan(
              () -> SearchRequest.plan(search, user, query, earliest, latest, false, readOnly));
    } catch (RuntimeException refused) {
      admitted.close();
      throw refused;
    }
    return jobs.submit(
        query,
        plan,
        admitted,
        timeLimit != null ? timeLimit : search.maxTime(),
        ttl,
        everyEventField);
  }
}
