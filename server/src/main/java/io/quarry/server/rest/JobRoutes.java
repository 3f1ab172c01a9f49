package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.plugin.api.data.Schema;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.http.ApiException;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import io.quarry.server.jobs.JobManager;
import io.quarry.server.jobs.SearchJob;
import io.quarry.server.search.SearchService;
import io.quarry.server.search.SearchStats;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The native search-job API, {@code /api/v1/jobs}: create (blocking or async), status, typed
 * results with paging (readable while the job runs: a preview), cancel, finalize, TTL, delete,
 * list, and the job inspector ({@link JobCosts}). Every route needs the user's credentials. Jobs
 * are submitted, here and by Splunk's job routes, through {@link JobSubmission}.
 */
public final class JobRoutes {
  static final int DEFAULT_COUNT = 100;
  static final int MAX_COUNT = 50_000;

  private final Authenticator authenticator;
  private final SearchService search;
  private final JobManager jobs;
  private final JobSubmission submission;

  public JobRoutes(Authenticator authenticator, SearchService search, JobManager jobs) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.search = requireNonNull(search, "search is null");
    this.jobs = requireNonNull(jobs, "jobs is null");
    this.submission = new JobSubmission(authenticator, search, jobs);
  }

  /** How the job routes, Splunk's among them, submit a job. */
  JobSubmission submission() {
    return submission;
  }

  public void register(Router router) {
    router.add(HttpMethod.POST, "/api/v1/jobs", this::create);
    router.add(HttpMethod.GET, "/api/v1/jobs", this::list);
    router.add(HttpMethod.GET, "/api/v1/jobs/{id}", this::status);
    router.add(HttpMethod.DELETE, "/api/v1/jobs/{id}", this::delete);
    router.add(HttpMethod.GET, "/api/v1/jobs/{id}/results", this::results);
    router.add(HttpMethod.GET, "/api/v1/jobs/{id}/inspect", this::inspect);
    router.add(HttpMethod.POST, "/api/v1/jobs/{id}/cancel", this::cancel);
    router.add(HttpMethod.POST, "/api/v1/jobs/{id}/finalize", this::finalizeJob);
    router.add(HttpMethod.POST, "/api/v1/jobs/{id}/touch", this::touch);
  }

  /** The authenticated user's access; 401 without one. */
  private io.quarry.server.auth.Access authorize(Exchange exchange) {
    return authenticator.requireAccess(exchange.header(HttpHeaderNames.AUTHORIZATION), "Search");
  }

  /**
   * {@code POST /api/v1/jobs} with {@code {"query", "earliest", "latest", "mode":
   * "async"|"blocking", "timeout": seconds, "ttl": seconds, "readOnly": false}}: 201 with the job's
   * status. With {@code readOnly} (a search run again on the user's behalf: the search page's
   * timeline) a query that writes is refused (400 {@code SEARCH_WRITES}).
   */
  private void create(Exchange exchange) throws Exception {
    io.quarry.server.auth.Access user = authorize(exchange);
    SearchRequest request = SearchRequest.read(exchange);
    String mode = request.text("mode") == null ? "async" : request.text("mode");
    if (!mode.equals("async") && !mode.equals("blocking")) {
      throw ApiException.badRequest(
          "INVALID_PARAMETER", "'mode' must be async or blocking, not '" + mode + "'");
    }
    boolean readOnly = request.bool("readOnly", false);
    if (readOnly) {
      request.requireReadOnly(search, "A read-only job (readOnly: true)");
    }
    Duration timeLimit = request.seconds("timeout", search.maxTime());
    Duration ttl = request.seconds("ttl", jobs.defaultTtl());
    SearchJob job =
        submission.submit(
            user,
            request.query(),
            request.earliest(),
            request.latest(),
            timeLimit,
            ttl,
            readOnly,
            false);
    if (mode.equals("blocking")) {
      job.await(timeLimit.plusSeconds(60));
    }
    exchange.json(HttpResponseStatus.CREATED, status(job));
  }

  /** Whether a job's search transforms its events (its results are a table, not events). */
  boolean transforms(SearchJob job) {
    return job.plan() != null && search.transforms(job.plan());
  }

  private void list(Exchange exchange) {
    io.quarry.server.auth.Access user = authorize(exchange);
    List<Map<String, Object>> all = new ArrayList<>();
    for (SearchJob job : jobs.list(user)) {
      all.add(status(job));
    }
    exchange.json(HttpResponseStatus.OK, Map.of("jobs", all));
  }

  private SearchJob job(Exchange exchange) {
    return jobs.require(exchange.pathParameter("id"), authorize(exchange));
  }

  /**
   * The job a caller is about to change ({@code operation}: cancel, finalize, delete, setttl); a
   * change to another user's job (with {@code admin_all_objects}) is recorded in the audit trail
   * ({@code action="job control"}, the operation, the job and its owner), since the job's own
   * search event names only its owner.
   */
  SearchJob controlled(
      Exchange exchange,
      io.quarry.server.auth.Access caller,
      String idParameter,
      String operation) {
    SearchJob job = jobs.require(exchange.pathParameter(idParameter), caller);
    if (!job.owner().equals(caller.user())) {
      authenticator
          .audit()
          .record(
              Authenticator.auditEvent(caller.user(), "job control", "succeeded")
                  .with("operation", operation)
                  .with("search_id", job.id())
                  .with("owner", job.owner()));
    }
    return job;
  }

  private void status(Exchange exchange) {
    exchange.json(HttpResponseStatus.OK, status(job(exchange)));
  }

  private void delete(Exchange exchange) {
    SearchJob job = controlled(exchange, authorize(exchange), "id", "delete");
    jobs.delete(job);
    exchange.json(HttpResponseStatus.OK, Map.of("id", job.id(), "deleted", true));
  }

  private void cancel(Exchange exchange) {
    SearchJob job = controlled(exchange, authorize(exchange), "id", "cancel");
    jobs.cancel(job);
    exchange.json(HttpResponseStatus.OK, status(job));
  }

  private void finalizeJob(Exchange exchange) {
    SearchJob job = controlled(exchange, authorize(exchange), "id", "finalize");
    jobs.finalizeJob(job);
    exchange.json(HttpResponseStatus.OK, status(job));
  }

  /**
   * {@code POST /api/v1/jobs/{id}/touch?ttl=seconds}: keep the job that long from now (at most
   * search.maxJobTtlSeconds; the status tells the TTL set).
   */
  private void touch(Exchange exchange) {
    String ttl = exchange.parameter("ttl");
    SearchJob job =
        ttl == null ? job(exchange) : controlled(exchange, authorize(exchange), "id", "setttl");
    if (ttl != null) {
      jobs.ttl(job, Duration.ofSeconds(positiveLong(ttl, "ttl")));
    }
    exchange.json(HttpResponseStatus.OK, status(job));
  }

  /**
   * {@code GET /api/v1/jobs/{id}/results?offset=0&count=100}: the schema (names and types) and a
   * page of typed rows. While the job runs this is a preview: the rows so far.
   */
  private void results(Exchange exchange) {
    SearchJob job = job(exchange);
    failIfFailed(job);
    long offset = nonNegativeLong(exchange.parameter("offset"), 0, "offset");
    long count = nonNegativeLong(exchange.parameter("count"), DEFAULT_COUNT, "count");
    if (count > MAX_COUNT) {
      throw ApiException.badRequest(
          "INVALID_PARAMETER", "count may be at most " + MAX_COUNT + ", not " + count);
    }
    boolean done = job.state().finished();
    Schema schema = job.schema();
    List<Map<String, String>> fields = new ArrayList<>();
    if (schema != null) {
      for (Schema.Column column : schema.columns()) {
        Map<String, String> field = new LinkedHashMap<>();
        field.put("name", column.name());
        field.put("type", column.type().wireName());
        fields.add(field);
      }
    }
    List<List<Object>> rows = new ArrayList<>();
    for (SearchJob.RowRef row : job.slice(offset, count)) {
      List<Object> values = new ArrayList<>(row.page().schema().size());
      for (int column = 0; column < row.page().schema().size(); column++) {
        values.add(ResultValues.typed(row.page().block(column), row.position()));
      }
      rows.add(values);
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("id", job.id());
    body.put("preview", !done);
    body.put("offset", offset);
    body.put("total", job.rows());
    body.put("fields", fields);
    body.put("rows", rows);
    exchange.json(HttpResponseStatus.OK, body);
  }

  /** {@code GET /api/v1/jobs/{id}/inspect}: the plan and, once done, what every stage cost. */
  private void inspect(Exchange exchange) {
    SearchJob job = job(exchange);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("id", job.id());
    body.put("state", job.state().name());
    body.put("plan", job.plan() == null ? job.waiting() : search.explain(job.plan()));
    SearchStats stats = job.stats();
    if (stats != null) {
      body.put("costs", JobCosts.of(stats));
    }
    exchange.json(HttpResponseStatus.OK, body);
  }

  static void failIfFailed(SearchJob job) {
    if (job.state() == SearchJob.State.FAILED && job.error() != null) {
      throw job.error();
    }
  }

  /** A job's status, as the native API shows it. */
  Map<String, Object> status(SearchJob job) {
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("id", job.id());
    status.put("query", job.query());
    status.put("expandedQuery", job.expandedQuery());
    status.put("state", job.state().name());
    // a table (stats, timechart …) rather than events: what a client shows, and how
    status.put("transforming", transforms(job));
    status.put("finalized", job.finalized());
    status.put("created", job.created().toString());
    status.put("runDurationMs", job.runDuration().toMillis());
    status.put("eventsRead", job.eventsRead());
    SearchStats stats = job.stats();
    if (stats != null) {
      status.put("eventsMatched", stats.eventsMatched());
      status.put("eventsCollected", stats.eventsCollected());
    }
    status.put("rows", job.rows());
    status.put(
        "messages",
        stats != null
            ? stats.messages()
            : job.waiting() != null ? List.of(job.waiting()) : List.of());
    status.put("ttlSeconds", job.ttl().toSeconds());
    if (job.expiresAtMillis() != Long.MAX_VALUE) {
      status.put("expires", Instant.ofEpochMilli(job.expiresAtMillis()).toString());
    }
    if (job.error() != null) {
      status.put("error", job.error().body().get("error"));
    }
    return status;
  }

  static long nonNegativeLong(String text, long fallback, String name) {
    if (text == null || text.isBlank()) {
      return fallback;
    }
    try {
      long value = Long.parseLong(text.strip());
      if (value < 0) {
        throw new NumberFormatException();
      }
      return value;
    } catch (NumberFormatException e) {
      throw ApiException.badRequest(
          "INVALID_PARAMETER", name + " must be a whole number of at least 0, not '" + text + "'");
    }
  }

  private static long positiveLong(String text, String name) {
    long value = nonNegativeLong(text, 0, name);
    if (value == 0) {
      throw ApiException.badRequest("INVALID_PARAMETER", name + " must be positive");
    }
    return value;
  }
}
