package io.quarry.server.jobs;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.plan.SearchPlan;
import io.quarry.server.auth.AdmittedSearch;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * A search job that waits for one of its user's {@code srchJobsQuota} slots ({@code
 * search.queueOverQuota}), as Splunk queues a search past its role's quota: it is planned only once
 * admitted, since its subsearches run while it is planned and must count against the quota.
 *
 * @param id the job's id (and its search id in the audit trail)
 * @param user who submitted it
 * @param query the query as sent
 * @param timeLimit the most time it may read events, the roles' {@code srchMaxTime} applied
 * @param ttl how long it is kept once finished, or null for the default
 * @param admit takes a slot of the user's if one is free, else answers null
 * @param planner plans the query (under the admission); throws an {@code ApiException} for a query
 *     that does not parse or needs a capability the user lacks
 * @param cancelled records that the job was cancelled or deleted before it was admitted
 */
public record WaitingJob(
    String id,
    String user,
    String query,
    Duration timeLimit,
    Duration ttl,
    Supplier<AdmittedSearch> admit,
    Supplier<SearchPlan> planner,
    Runnable cancelled) {
  public WaitingJob {
    requireNonNull(id, "id is null");
    requireNonNull(user, "user is null");
    requireNonNull(query, "query is null");
    requireNonNull(timeLimit, "timeLimit is null");
    requireNonNull(admit, "admit is null");
    requireNonNull(planner, "planner is null");
    requireNonNull(cancelled, "cancelled is null");
  }
}
