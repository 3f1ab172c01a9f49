package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.http.ApiException;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import io.quarry.server.jobs.JobManager;
import io.quarry.server.jobs.SearchJob;
import io.quarry.server.search.SearchStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Splunk's search-job endpoints over the same jobs as {@code /api/v1/jobs}, with {@code
 * output_mode=json} (Splunk's JSON shapes: an {@code entry} list with {@code content} for a job,
 * {@code fields} and {@code results} with text values for results, a multivalue an array of them):
 *
 * <ul>
 *   <li>{@code POST /services/search/jobs} ({@code search}, {@code exec_mode=normal|blocking|
 *       oneshot}, {@code earliest_time}, {@code latest_time}, {@code max_time}, {@code timeout}
 *       (the job's TTL in seconds, at most search.maxJobTtlSeconds), {@code adhoc_search_level}
 *       ({@link SearchLevel}), {@code count} for oneshot) → 201 {@code {"sid":…}}, or the results
 *       for oneshot; {@code GET} lists jobs;
 *   <li>{@code GET …/jobs/{sid}} status with Splunk's keys ({@code dispatchState}, {@code isDone},
 *       {@code isFailed}, {@code isFinalized}, {@code doneProgress}, {@code eventCount}, {@code
 *       resultCount}, {@code scanCount}, {@code runDuration} …); {@code DELETE} removes it;
 *   <li>{@code GET …/{sid}/results}, {@code results_preview} and {@code events} with {@code offset}
 *       and {@code count} (0 = all); {@code POST} too, for the v2 API;
 *   <li>{@code POST …/{sid}/control} with {@code action=cancel|finalize|touch|setttl} ({@code
 *       setttl} with {@code ttl} seconds, clamped to search.maxJobTtlSeconds).
 * </ul>
 *
 * Every path is also served under {@code /services/search/v2/jobs} and {@code
 * /servicesNS/{owner}/{app}/search[/v2]/jobs}. Without {@code output_mode} (or with {@code xml}),
 * job creation, status, lists and control answer in Splunk's Atom XML, which its SDKs parse, and
 * results in Splunk's results XML (its SDKs' {@code ResultsReader}); results also come as {@code
 * json} and {@code csv} ({@link SplunkJobResults} writes the results in every mode).
 */
public final class SplunkJobRoutes {
  private static final List<String> PREFIXES =
      List.of(
          "/services/search/jobs",
          "/services/search/v2/jobs",
          "/servicesNS/{owner}/{app}/search/jobs",
          "/servicesNS/{owner}/{app}/search/v2/jobs");

  private final Authenticator authenticator;
  private final JobRoutes jobRoutes;
  private final JobManager jobs;

  public SplunkJobRoutes(Authenticator authenticator, JobRoutes jobRoutes, JobManager jobs) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.jobRoutes = requireNonNull(jobRoutes, "jobRoutes is null");
    this.jobs = requireNonNull(jobs, "jobs is null");
  }

  public void register(Router router) {
    for (String prefix : PREFIXES) {
      router.add(HttpMethod.POST, prefix, SplunkErrors.splunk(this::create));
      router.add(HttpMethod.GET, prefix, SplunkErrors.splunk(this::list));
      router.add(HttpMethod.GET, prefix + "/{sid}", SplunkErrors.splunk(this::status));
      router.add(HttpMethod.DELETE, prefix + "/{sid}", SplunkErrors.splunk(this::delete));
      for (String results : List.of("results", "results_preview", "events")) {
        router.add(
            HttpMethod.GET, prefix + "/{sid}/" + results, SplunkErrors.splunk(this::results));
        router.add(
            HttpMethod.POST, prefix + "/{sid}/" + results, SplunkErrors.splunk(this::results));
      }
      router.add(HttpMethod.POST, prefix + "/{sid}/control", SplunkErrors.splunk(this::control));
    }
  }

  /** The authenticated user; 401 without one. */
  private io.quarry.server.auth.Access user(Exchange exchange) {
    return authenticator.requireAccess(exchange.header(HttpHeaderNames.AUTHORIZATION), "Search");
  }

  /**
   * Whether to answer in Splunk's XML (no {@code output_mode}, or {@code xml}) rather than JSON.
   *
   * @throws ApiException 400 for other modes
   */
  static boolean xml(Exchange exchange) {
    String outputMode = exchange.parameter("output_mode");
    if (outputMode == null || outputMode.equalsIgnoreCase("xml")) {
      return true;
    }
    if (outputMode.equalsIgnoreCase("json")) {
      return false;
    }
    throw ApiException.badRequest(
        "UNSUPPORTED_OUTPUT_MODE",
        "output_mode '" + outputMode + "' is not supported here; use json (or xml for job status)");
  }

  private void create(Exchange exchange) throws Exception {
    io.quarry.server.auth.Access user = user(exchange);
    String query = exchange.parameter("search");
    if (query == null || query.isBlank()) {
      throw ApiException.badRequest(
          "MISSING_PARAMETER", "The 'search' parameter is required (the SPL query to run)");
    }
    String mode = exchange.parameter("exec_mode");
    mode = mode == null ? "normal" : mode.toLowerCase(Locale.ROOT);
    if (!List.of("normal", "blocking", "oneshot").contains(mode)) {
      throw ApiException.badRequest(
          "INVALID_PARAMETER", "exec_mode must be normal, blocking or oneshot, not '" + mode + "'");
    }
    // the answer's format is checked before a job exists, so a bad output_mode leaves none behind
    SplunkJobResults.Mode resultsMode =
        mode.equals("oneshot") ? SplunkJobResults.Mode.of(exchange) : null;
    boolean asXml = !mode.equals("oneshot") && xml(exchange);
    Duration timeLimit = SearchExportRoute.maxTime(exchange.parameter("max_time"));
    boolean everyEventField = SearchLevel.everyEventField(exchange.parameter("adhoc_search_level"));
    // Splunk's timeout: how long the job is kept after it stopped (its TTL), clamped to the maximum
    String timeout = exchange.parameter("timeout");
    Duration ttl =
        timeout == null || timeout.isBlank()
            ? null
            : Duration.ofSeconds(JobRoutes.nonNegativeLong(timeout, 0, "timeout"));
    SearchJob job =
        jobRoutes
            .submission()
            .submit(
                user,
                query,
                exchange.parameter("earliest_time"),
                exchange.parameter("latest_time"),
                timeLimit,
                ttl,
                false,
                everyEventField);
    if (!mode.equals("normal")) {
      job.await(Duration.ofDays(1));
    }
    if (mode.equals("oneshot")) {
      try {
        long count = JobRoutes.nonNegativeLong(exchange.parameter("count"), 100, "count");
        SplunkJobResults.answer(exchange, resultsMode, job, 0, count);
      } finally {
        jobs.delete(job);
      }
      return;
    }
    if (asXml) {
      exchange.text(
          HttpResponseStatus.CREATED,
          SplunkAtom.CONTENT_TYPE,
          SplunkAtom.response(Map.of("sid", job.id())));
    } else {
      exchange.json(HttpResponseStatus.CREATED, Map.of("sid", job.id()));
    }
  }

  private void list(Exchange exchange) {
    List<SearchJob> visible = jobs.list(user(exchange));
    if (xml(exchange)) {
      List<SplunkAtom.Entry> atom = new ArrayList<>();
      for (SearchJob job : visible) {
        atom.add(atomEntry(job));
      }
      exchange.text(
          HttpResponseStatus.OK,
          SplunkAtom.CONTENT_TYPE,
          SplunkAtom.feed("jobs", "/services/search/jobs", atom));
      return;
    }
    List<Map<String, Object>> entries = new ArrayList<>();
    for (SearchJob job : visible) {
      entries.add(entry(job));
    }
    exchange.json(HttpResponseStatus.OK, feed(entries));
  }

  private SearchJob job(Exchange exchange) {
    return jobs.require(exchange.pathParameter("sid"), user(exchange));
  }

  private void status(Exchange exchange) {
    SearchJob job = job(exchange);
    if (xml(exchange)) {
      exchange.text(
          HttpResponseStatus.OK, SplunkAtom.CONTENT_TYPE, SplunkAtom.entryDocument(atomEntry(job)));
    } else {
      exchange.json(HttpResponseStatus.OK, feed(List.of(entry(job))));
    }
  }

  private void delete(Exchange exchange) {
    jobs.delete(jobRoutes.controlled(exchange, user(exchange), "sid", "delete"));
    info(exchange, "Search job cancelled.");
  }

  /** An INFO message in the answer's format. */
  private static void info(Exchange exchange, String text) {
    if (xml(exchange)) {
      exchange.text(
          HttpResponseStatus.OK, SplunkAtom.CONTENT_TYPE, SplunkAtom.messages("INFO", text));
    } else {
      exchange.json(HttpResponseStatus.OK, messages("INFO", text));
    }
  }

  private void results(Exchange exchange) {
    SearchJob job = job(exchange);
    SplunkJobResults.Mode mode = SplunkJobResults.Mode.of(exchange);
    JobRoutes.failIfFailed(job);
    long offset = JobRoutes.nonNegativeLong(exchange.parameter("offset"), 0, "offset");
    long count = JobRoutes.nonNegativeLong(exchange.parameter("count"), 100, "count");
    if (exchange.path().endsWith("/events") && jobRoutes.transforms(job)) {
      SplunkJobResults.answerNoEvents(exchange, mode, job);
      return;
    }
    SplunkJobResults.answer(exchange, mode, job, offset, count);
  }

  private void control(Exchange exchange) {
    String action = exchange.parameter("action");
    SearchJob job =
        action != null && List.of("cancel", "finalize", "setttl").contains(action)
            ? jobRoutes.controlled(exchange, user(exchange), "sid", action)
            : job(exchange);
    switch (action == null ? "" : action) {
      case "cancel" -> {
        jobs.cancel(job);
        info(exchange, "Search job cancelled.");
      }
      case "finalize" -> {
        jobs.finalizeJob(job);
        info(exchange, "Search job finalized.");
      }
      case "touch" -> info(exchange, "Search job touched.");
      case "setttl" -> {
        String ttl = exchange.parameter("ttl");
        Duration set = jobs.ttl(job, Duration.ofSeconds(JobRoutes.nonNegativeLong(ttl, 1, "ttl")));
        info(exchange, "The TTL was set to " + set.toSeconds() + " s.");
      }
      default ->
          throw ApiException.badRequest(
              "INVALID_PARAMETER",
              "action must be cancel, finalize, touch or setttl, not '" + action + "'");
    }
  }

  /** One job as an Atom entry; {@code eai:acl} is inside the content, as Splunk puts it. */
  private static SplunkAtom.Entry atomEntry(SearchJob job) {
    Map<String, Object> content = content(job);
    content.put("eai:acl", acl(job));
    return new SplunkAtom.Entry(
        job.query(),
        "/services/search/jobs/" + job.id(),
        job.created().toString(),
        job.owner(),
        content);
  }

  private static Map<String, Object> acl(SearchJob job) {
    Map<String, Object> acl = new LinkedHashMap<>();
    acl.put("owner", job.owner());
    acl.put("app", "search");
    acl.put("sharing", "global");
    acl.put(
        "perms",
        Map.of(
            "read",
            List.of(job.owner(), Authenticator.ADMIN_USER),
            "write",
            List.of(job.owner(), Authenticator.ADMIN_USER)));
    return acl;
  }

  /** One job as a Splunk JSON feed entry. */
  private static Map<String, Object> entry(SearchJob job) {
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("name", job.query());
    entry.put("id", "/services/search/jobs/" + job.id());
    entry.put("published", job.created().toString());
    entry.put("author", job.owner());
    entry.put("content", content(job));
    entry.put("acl", acl(job));
    return entry;
  }

  /** Splunk's status keys of a job. */
  private static Map<String, Object> content(SearchJob job) {
    SearchStats stats = job.stats();
    boolean done = job.state().finished();
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("sid", job.id());
    content.put(
        "dispatchState",
        switch (job.state()) {
          case QUEUED -> "QUEUED";
          case RUNNING -> job.finalized() ? "FINALIZING" : "RUNNING";
          case DONE, CANCELLED -> "DONE";
          case FAILED -> "FAILED";
        });
    content.put("isDone", done);
    content.put("isFailed", job.state() == SearchJob.State.FAILED);
    content.put("isFinalized", job.finalized());
    content.put("isPaused", false);
    content.put("isSaved", false);
    content.put("isZombie", false);
    content.put("doneProgress", done ? 1.0 : 0.0);
    content.put("eventCount", stats == null ? 0 : stats.eventsMatched());
    content.put("resultCount", job.rows());
    content.put("scanCount", job.eventsRead());
    content.put("eventAvailableCount", job.rows());
    content.put("runDuration", job.runDuration().toNanos() / 1e9);
    // Quarry's: the CPU seconds the search's own threads spent (search.SearchCpu), once done
    content.put("cpuDuration", stats == null ? 0.0 : stats.cpu().toNanos() / 1e9);
    content.put("ttl", job.ttl().toSeconds());
    content.put("earliestTime", "");
    content.put("latestTime", "");
    content.put("messages", SplunkJobResults.messageList(job));
    return content;
  }

  private static Map<String, Object> feed(List<Map<String, Object>> entries) {
    return SplunkEntities.feed("/services/search/jobs", entries);
  }

  private static Map<String, Object> messages(String type, String text) {
    return Map.of("messages", List.of(SplunkJobResults.message(type, text)));
  }
}
