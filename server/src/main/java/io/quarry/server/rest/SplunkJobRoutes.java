package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Schema;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.http.ApiException;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import io.quarry.server.jobs.JobManager;
import io.quarry.server.jobs.SearchJob;
import io.quarry.server.lookups.Csv;
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
 *       (the job's TTL in seconds, at most search.maxJobTtlSeconds), {@code count} for oneshot) →
 *       201 {@code {"sid":…}}, or the results for oneshot; {@code GET} lists jobs;
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
 * json} and {@code csv}.
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

  /**
   * How results are answered: {@code json} (a list of objects), {@code json_rows} (field names and
   * a list of value lists), {@code json_cols} (field names and one value list per field), {@code
   * csv}, or Splunk's results XML (the default).
   */
  private enum ResultsMode {
    XML,
    JSON,
    JSON_ROWS,
    JSON_COLS,
    CSV;

    static ResultsMode of(Exchange exchange) {
      String mode = exchange.parameter("output_mode");
      if (mode == null || mode.equalsIgnoreCase("xml")) {
        return XML;
      }
      return switch (mode.toLowerCase(Locale.ROOT)) {
        case "json" -> JSON;
        case "json_rows" -> JSON_ROWS;
        case "json_cols" -> JSON_COLS;
        case "csv" -> CSV;
        default ->
            throw ApiException.badRequest(
                "UNSUPPORTED_OUTPUT_MODE",
                "output_mode '"
                    + mode
                    + "' is not supported for results; use json, json_rows, json_cols, csv or xml");
      };
    }
  }

  /** Answers a slice of a job's results in the requested mode. */
  private static void answerResults(
      Exchange exchange, ResultsMode mode, SearchJob job, long offset, long count) {
    switch (mode) {
      case JSON -> exchange.json(HttpResponseStatus.OK, results(job, offset, count));
      case JSON_ROWS, JSON_COLS ->
          exchange.json(
              HttpResponseStatus.OK, tabular(job, offset, count, mode == ResultsMode.JSON_COLS));
      case CSV ->
          exchange.text(HttpResponseStatus.OK, "text/csv; charset=UTF-8", csv(job, offset, count));
      case XML ->
          exchange.text(
              HttpResponseStatus.OK, SplunkAtom.CONTENT_TYPE, xmlResults(job, offset, count));
    }
  }

  /** The field names of a job's results, in order. */
  private static List<String> fieldNames(SearchJob job) {
    Schema schema = job.schema();
    return schema == null ? List.of() : ResultValues.names(schema);
  }

  /** Splunk's results XML, as its SDK's {@code ResultsReader} reads it. */
  private static String xmlResults(SearchJob job, long offset, long count) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.append("<results preview=\"").append(job.state().finished() ? 0 : 1).append("\">\n<meta>");
    xml.append("<fieldOrder>");
    for (String name : fieldNames(job)) {
      xml.append("<field>").append(SplunkAtom.escape(name)).append("</field>");
    }
    xml.append("</fieldOrder></meta>\n");
    List<Map<String, String>> messages = messageList(job);
    if (!messages.isEmpty()) {
      xml.append("<messages>");
      for (Map<String, String> message : messages) {
        xml.append("<msg type=\"")
            .append(SplunkAtom.escape(message.get("type")))
            .append("\">")
            .append(SplunkAtom.escape(message.get("text")))
            .append("</msg>");
      }
      xml.append("</messages>\n");
    }
    long position = offset;
    for (SearchJob.RowRef row : job.slice(offset, count == 0 ? Long.MAX_VALUE : count)) {
      xml.append("<result offset=\"").append(position++).append("\">");
      for (int column = 0; column < row.page().schema().size(); column++) {
        Block block = row.page().block(column);
        if (block.isNull(row.position())) {
          continue;
        }
        xml.append("<field k=\"")
            .append(SplunkAtom.escape(row.page().schema().column(column).name()))
            .append("\">");
        // a <value> per value, as Splunk writes a multivalue (its SDKs' test data, resultsMV.xml)
        int first = block.getFirstValueIndex(row.position());
        for (int i = first; i < first + block.getValueCount(row.position()); i++) {
          xml.append("<value><text>")
              .append(SplunkAtom.escape(ResultValues.valueText(block, i)))
              .append("</text></value>");
        }
        xml.append("</field>");
      }
      xml.append("</result>\n");
    }
    return xml.append("</results>\n").toString();
  }

  /** RFC 4180 CSV with a header of the job's fields. */
  private static String csv(SearchJob job, long offset, long count) {
    List<String> names = fieldNames(job);
    StringBuilder csv = new StringBuilder();
    Csv.line(csv, names);
    for (SearchJob.RowRef row : job.slice(offset, count == 0 ? Long.MAX_VALUE : count)) {
      int[] columns = ResultValues.columns(row.page().schema(), names);
      Csv.line(csv, ResultValues.texts(row.page(), row.position(), columns));
    }
    return csv.toString();
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
    ResultsMode resultsMode = mode.equals("oneshot") ? ResultsMode.of(exchange) : null;
    boolean asXml = !mode.equals("oneshot") && xml(exchange);
    Duration timeLimit = SearchExportRoute.maxTime(exchange.parameter("max_time"));
    // Splunk's timeout: how long the job is kept after it stopped (its TTL), clamped to the maximum
    String timeout = exchange.parameter("timeout");
    Duration ttl =
        timeout == null || timeout.isBlank()
            ? null
            : Duration.ofSeconds(JobRoutes.nonNegativeLong(timeout, 0, "timeout"));
    SearchJob job =
        jobRoutes.submit(
            user,
            query,
            exchange.parameter("earliest_time"),
            exchange.parameter("latest_time"),
            timeLimit,
            ttl);
    if (!mode.equals("normal")) {
      job.await(Duration.ofDays(1));
    }
    if (mode.equals("oneshot")) {
      try {
        long count = JobRoutes.nonNegativeLong(exchange.parameter("count"), 100, "count");
        answerResults(exchange, resultsMode, job, 0, count);
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
    ResultsMode mode = ResultsMode.of(exchange);
    JobRoutes.failIfFailed(job);
    long offset = JobRoutes.nonNegativeLong(exchange.parameter("offset"), 0, "offset");
    long count = JobRoutes.nonNegativeLong(exchange.parameter("count"), 100, "count");
    if (exchange.path().endsWith("/events") && jobRoutes.transforms(job)) {
      answerNoEvents(exchange, mode, job);
      return;
    }
    answerResults(exchange, mode, job, offset, count);
  }

  /**
   * {@code …/events} of a transforming search: like Splunk without {@code status_buckets}, no
   * events (they were aggregated, not kept), and a message pointing at {@code …/results}.
   */
  private static void answerNoEvents(Exchange exchange, ResultsMode mode, SearchJob job) {
    String text =
        "This search transforms its events; they are not kept. Its rows are at …/results.";
    List<Map<String, String>> messages = new ArrayList<>(messageList(job));
    messages.add(message("INFO", text));
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("preview", !job.state().finished());
    body.put("init_offset", 0);
    body.put("messages", messages);
    body.put("fields", List.of());
    switch (mode) {
      case JSON -> body.put("results", List.of());
      case JSON_ROWS -> body.put("rows", List.of());
      case JSON_COLS -> body.put("columns", List.of());
      case CSV -> {
        exchange.text(HttpResponseStatus.OK, "text/csv; charset=UTF-8", "");
        return;
      }
      case XML -> {
        exchange.text(
            HttpResponseStatus.OK,
            SplunkAtom.CONTENT_TYPE,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<results preview=\""
                + (job.state().finished() ? 0 : 1)
                + "\">\n<meta><fieldOrder></fieldOrder></meta>\n<messages><msg type=\"INFO\">"
                + SplunkAtom.escape(text)
                + "</msg></messages>\n</results>\n");
        return;
      }
    }
    exchange.json(HttpResponseStatus.OK, body);
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

  /**
   * Splunk's results JSON: field names, then one object of text values per row (a multivalue an
   * array of texts).
   */
  private static Map<String, Object> results(SearchJob job, long offset, long count) {
    long take = count == 0 ? Long.MAX_VALUE : count;
    Schema schema = job.schema();
    List<Map<String, String>> fields = new ArrayList<>();
    if (schema != null) {
      for (Schema.Column column : schema.columns()) {
        fields.add(Map.of("name", column.name()));
      }
    }
    List<Map<String, Object>> rows = new ArrayList<>();
    for (SearchJob.RowRef row : job.slice(offset, take)) {
      Map<String, Object> values = new LinkedHashMap<>();
      for (int column = 0; column < row.page().schema().size(); column++) {
        Object value = ResultValues.splunk(row.page().block(column), row.position());
        if (value != null) {
          values.put(row.page().schema().column(column).name(), value);
        }
      }
      rows.add(values);
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("preview", !job.state().finished());
    body.put("init_offset", offset);
    body.put("messages", messageList(job));
    body.put("fields", fields);
    body.put("results", rows);
    return body;
  }

  /**
   * Splunk's {@code json_rows} ({@code "rows": [[v, …], …]}) or {@code json_cols} ({@code
   * "columns": [[v, …] per field]}): field names once, values as text (a multivalue an array of
   * texts), null where a row has none.
   */
  private static Map<String, Object> tabular(
      SearchJob job, long offset, long count, boolean byColumn) {
    long take = count == 0 ? Long.MAX_VALUE : count;
    List<String> names = fieldNames(job);
    List<List<Object>> rows = new ArrayList<>();
    for (SearchJob.RowRef row : job.slice(offset, take)) {
      int[] columns = ResultValues.columns(row.page().schema(), names);
      rows.add(ResultValues.splunkValues(row.page(), row.position(), columns));
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("preview", !job.state().finished());
    body.put("init_offset", offset);
    body.put("messages", messageList(job));
    body.put("fields", names);
    if (byColumn) {
      List<List<Object>> columns = new ArrayList<>();
      for (int c = 0; c < names.size(); c++) {
        List<Object> column = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
          column.add(row.get(c));
        }
        columns.add(column);
      }
      body.put("columns", columns);
    } else {
      body.put("rows", rows);
    }
    return body;
  }

  private static List<Map<String, String>> messageList(SearchJob job) {
    List<Map<String, String>> messages = new ArrayList<>();
    SearchStats stats = job.stats();
    if (stats != null) {
      for (String text : stats.messages()) {
        messages.add(message("WARN", text));
      }
    }
    if (job.error() != null) {
      messages.add(message("FATAL", job.error().getMessage()));
    }
    if (job.waiting() != null) { // past the user's srchJobsQuota, as Splunk says it
      messages.add(message("INFO", job.waiting()));
    }
    return messages;
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
    content.put("ttl", job.ttl().toSeconds());
    content.put("earliestTime", "");
    content.put("latestTime", "");
    content.put("messages", messageList(job));
    return content;
  }

  private static Map<String, Object> feed(List<Map<String, Object>> entries) {
    return SplunkEntities.feed("/services/search/jobs", entries);
  }

  private static Map<String, Object> messages(String type, String text) {
    return Map.of("messages", List.of(message(type, text)));
  }

  /** A Splunk message, its keys in Splunk's order. */
  private static Map<String, String> message(String type, String text) {
    Map<String, String> message = new LinkedHashMap<>();
    message.put("type", type);
    message.put("text", text);
    return message;
  }
}
