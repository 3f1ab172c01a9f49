package io.quarry.server.jobs;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.ql.plan.SearchPlan;
import io.quarry.server.auth.AdmittedSearch;
import io.quarry.server.http.ApiException;
import io.quarry.server.search.SearchService;
import io.quarry.server.search.SearchStats;
import java.time.Clock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs one admitted job on a job-pool thread: its search with the job's control and time limit, its
 * pages kept by the job, its end (done, failed, cancelled) recorded in the job and, through its
 * admission, in the audit trail; the admission (the user's slot) is closed at the end. A job that
 * waited for its slot is planned here first.
 */
final class JobExecution {
  private static final Logger LOG = Logger.getLogger(JobExecution.class.getName());

  private final SearchService search;
  private final Clock clock;

  JobExecution(SearchService search, Clock clock) {
    this.search = requireNonNull(search, "search is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /**
   * The query with macros expanded, as the plan was made a moment ago; should a macro have changed
   * in between so that it no longer expands, the query as sent (the plan is what runs).
   */
  String expandedOrAsSent(SearchPlan plan, String query) {
    return plan.expandedQuery()
        .orElseGet(
            () -> {
              try {
                return search.expand(query);
              } catch (io.quarry.ql.parser.QueryParseException changedMeanwhile) {
                return query;
              }
            });
  }

  /** Plans an admitted waiting job (its subsearches run now, under its slot), then runs it. */
  void planAndRun(SearchJob job, WaitingJob spec, AdmittedSearch admitted) {
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
    job.planned(plan, expandedOrAsSent(plan, job.query()));
    run(job, admitted);
  }

  /** Runs a planned job to its end and closes its admission. */
  void run(SearchJob job, AdmittedSearch admitted) {
    try (admitted) {
      if (job.cancelled()) {
        job.failed(null, clock.millis());
        admitted.cancelledBeforeStart(job.plan());
        return;
      }
      // the planning first: a status read as the job starts shows its run duration with it
      job.control().planning(admitted.planningCpu(), admitted.planningElapsed());
      job.started();
      try {
        SearchStats stats =
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
}
