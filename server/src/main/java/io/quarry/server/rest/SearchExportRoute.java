package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.ql.plan.SearchPlan;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.http.ApiException;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import io.quarry.server.search.SearchService;
import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * {@code POST /services/search/jobs/export}, as Splunk serves it with {@code output_mode=json}: one
 * JSON object per line, {@code {"preview":false,"offset":N,"result":{…}}}, the last one with {@code
 * "lastrow":true}, streamed page by page as the search produces them. Values are text, a multivalue
 * an array of texts, as Splunk writes them. Parameters come from the form body or the query string:
 * {@code search}, {@code output_mode}, {@code earliest_time}, {@code latest_time}, {@code
 * adhoc_search_level} ({@link SearchLevel}), and Quarry's own {@code quarry_costs} ({@link
 * #quarryCosts}). A search that fails after the first line ends with a {@code FATAL} message line
 * ({@link StreamFailure}).
 */
public final class SearchExportRoute {
  private final Authenticator authenticator;
  private final SearchService search;

  public SearchExportRoute(Authenticator authenticator, SearchService search) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.search = requireNonNull(search, "search is null");
  }

  public void register(Router router) {
    for (String path :
        List.of(
            "/services/search/jobs/export",
            "/services/search/v2/jobs/export",
            "/servicesNS/{owner}/{app}/search/jobs/export",
            "/servicesNS/{owner}/{app}/search/v2/jobs/export")) {
      router.add(HttpMethod.POST, path, SplunkErrors.splunk(this::export, true));
      router.add(HttpMethod.GET, path, SplunkErrors.splunk(this::export, true));
    }
  }

  private void export(Exchange exchange) throws IOException {
    io.quarry.server.auth.Access access =
        authenticator.requireAccess(exchange.header(HttpHeaderNames.AUTHORIZATION), "Search");
    String query = exchange.parameter("search");
    if (query == null || query.isBlank()) {
      throw ApiException.badRequest(
          "MISSING_PARAMETER", "The 'search' parameter is required (the SPL query to run)");
    }
    String outputMode = exchange.parameter("output_mode");
    if (outputMode != null && !outputMode.toLowerCase(Locale.ROOT).equals("json")) {
      throw ApiException.badRequest(
          "UNSUPPORTED_OUTPUT_MODE",
          "output_mode '"
              + outputMode
              + "' is not supported on this endpoint; use output_mode=json");
    }
    java.time.Duration timeLimit = maxTime(exchange.parameter("max_time"));
    boolean everyEventField = SearchLevel.everyEventField(exchange.parameter("adhoc_search_level"));
    boolean costs = quarryCosts(exchange.parameter("quarry_costs"));
    if (timeLimit == null) {
      timeLimit = search.maxTime();
    }
    // admitted before planning: subsearches run while the query is planned
    try (io.quarry.server.auth.AdmittedSearch admitted =
        io.quarry.server.auth.AdmittedSearch.admit(authenticator, access, query, null)) {
      boolean explain = "true".equalsIgnoreCase(exchange.parameter("explain"));
      SearchPlan plan =
          admitted.plan(
              () ->
                  SearchRequest.plan(
                      search,
                      access,
                      query,
                      exchange.parameter("earliest_time"),
                      exchange.parameter("latest_time"),
                      explain,
                      false));
      if (explain) {
        exchange.json(HttpResponseStatus.OK, java.util.Map.of("explain", search.explain(plan)));
        return;
      }
      // the response starts with the first line written, so a search that fails before producing
      // anything (a bad lookup, a failing plugin) still answers with a status and an error body
      ExportLines lines =
          new ExportLines(
              () -> exchange.stream(HttpResponseStatus.OK, "application/json; charset=UTF-8"),
              search.parallel());
      try {
        StreamedSearch.run(
            search,
            admitted,
            query,
            plan,
            timeLimit,
            exchange,
            lines::page,
            stats -> {
              lines.finish(stats, costs);
              lines.stream().finish();
            },
            everyEventField);
      } catch (RuntimeException failure) {
        if (!lines.started()) {
          throw failure; // answered in Splunk's shape with its status (SplunkErrors)
        }
        ApiException error = StreamFailure.typed(exchange.path(), failure);
        lines.fail(error);
        lines.stream().finishWithError(error.status());
      }
    }
  }

  /**
   * Splunk's {@code max_time} parameter: a positive number of seconds, or null when absent or 0 (no
   * limit of its own: the server's maximum applies).
   */
  static java.time.Duration maxTime(String maxTime) {
    if (maxTime == null || maxTime.isBlank() || maxTime.strip().equals("0")) {
      return null;
    }
    try {
      double seconds = Double.parseDouble(maxTime.strip());
      if (!(seconds > 0) || Double.isInfinite(seconds)) {
        throw new NumberFormatException();
      }
      return java.time.Duration.ofNanos((long) Math.min(Long.MAX_VALUE, Math.ceil(seconds * 1e9)));
    } catch (NumberFormatException e) {
      throw ApiException.badRequest(
          "INVALID_PARAMETER",
          "max_time must be a positive number of seconds, not '" + maxTime + "'");
    }
  }

  /**
   * Quarry's {@code quarry_costs} parameter, which Splunk's export does not have: whether the
   * answer ends with a line of the search's costs ({@link ExportLines#finish}). Off by default, so
   * the answer is Splunk's lines alone, as Splunk's readers and scripts expect; {@code true} or
   * {@code 1} turns it on, {@code false} or {@code 0} (any case, spaces around ignored) or an
   * absent or blank one leaves it off.
   *
   * @throws ApiException 400 {@code INVALID_PARAMETER} for any other value
   */
  static boolean quarryCosts(String value) {
    if (value == null || value.isBlank()) {
      return false;
    }
    return switch (value.strip().toLowerCase(Locale.ROOT)) {
      case "true", "1" -> true;
      case "false", "0" -> false;
      default ->
          throw ApiException.badRequest(
              "INVALID_PARAMETER", "quarry_costs must be true or false, not '" + value + "'");
    };
  }
}
