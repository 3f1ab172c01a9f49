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
import io.quarry.server.saved.SavedSearch;
import io.quarry.server.saved.SavedSearchStore;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Splunk's saved searches, as {@code service.saved_searches} in its SDKs uses them, under {@code
 * /services/saved/searches} and {@code /servicesNS/{owner}/{app}/saved/searches}:
 *
 * <ul>
 *   <li>{@code GET} the collection (every saved search: they are shared, Splunk's {@code global}
 *       sharing), {@code POST} to create one ({@code name}, {@code search}, {@code description},
 *       {@code dispatch.earliest_time}, {@code dispatch.latest_time}; the caller owns it);
 *   <li>{@code GET}, {@code POST} (change) and {@code DELETE} {@code …/{name}} — changes by its
 *       owner or admin only, never the configuration's;
 *   <li>{@code POST …/{name}/dispatch}: runs it as a job of the caller (their roles apply), with
 *       its time range unless {@code dispatch.earliest_time}/{@code dispatch.latest_time} are
 *       given; answers the {@code sid} like job creation;
 *   <li>{@code GET …/{name}/history}: the caller's jobs it was dispatched as that still exist.
 * </ul>
 *
 * Scheduling and alerting ({@code is_scheduled}, {@code cron_schedule}, {@code actions}, {@code
 * alert_*}) are refused with 400: Quarry has no scheduler. Other Splunk settings are ignored.
 */
public final class SplunkSavedSearchRoutes {
  private static final String PATH = "saved/searches";

  private final Authenticator authenticator;
  private final SavedSearchStore searches;
  private final JobRoutes jobRoutes;
  private final JobManager jobs;

  public SplunkSavedSearchRoutes(
      Authenticator authenticator,
      SavedSearchStore searches,
      JobRoutes jobRoutes,
      JobManager jobs) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.searches = requireNonNull(searches, "searches is null");
    this.jobRoutes = requireNonNull(jobRoutes, "jobRoutes is null");
    this.jobs = requireNonNull(jobs, "jobs is null");
  }

  public void register(Router router) {
    for (String prefix : SplunkEntities.paths(PATH)) {
      router.add(HttpMethod.GET, prefix, SplunkErrors.splunk(this::list));
      router.add(HttpMethod.POST, prefix, SplunkErrors.splunk(this::create));
      router.add(HttpMethod.GET, prefix + "/{name}", SplunkErrors.splunk(this::show));
      router.add(HttpMethod.POST, prefix + "/{name}", SplunkErrors.splunk(this::update));
      router.add(HttpMethod.DELETE, prefix + "/{name}", SplunkErrors.splunk(this::delete));
      router.add(HttpMethod.POST, prefix + "/{name}/dispatch", SplunkErrors.splunk(this::dispatch));
      router.add(HttpMethod.GET, prefix + "/{name}/history", SplunkErrors.splunk(this::history));
    }
  }

  private String user(Exchange exchange) {
    return authenticator.requireUser(
        exchange.header(HttpHeaderNames.AUTHORIZATION), "Saved searches");
  }

  private void list(Exchange exchange) {
    user(exchange);
    List<SplunkEntities.Entity> all = new ArrayList<>();
    searches.list().forEach((name, search) -> all.add(entity(name, search)));
    SplunkEntities.answer(exchange, HttpResponseStatus.OK, PATH, all);
  }

  private void show(Exchange exchange) {
    user(exchange);
    String name = exchange.pathParameter("name");
    SplunkEntities.answer(
        exchange, HttpResponseStatus.OK, PATH, List.of(entity(name, require(name))));
  }

  private void create(Exchange exchange) throws IOException {
    String user = user(exchange);
    refuseScheduling(exchange);
    String name = exchange.parameter("name");
    String query = exchange.parameter("search");
    if (query == null || query.isBlank()) {
      throw ApiException.badRequest(
          "MISSING_PARAMETER", "The 'search' parameter is required (the saved search's SPL)");
    }
    checkLength(query);
    SavedSearch search =
        new SavedSearch(
            query,
            exchange.parameter("description"),
            exchange.parameter("dispatch.earliest_time"),
            exchange.parameter("dispatch.latest_time"),
            user,
            System.currentTimeMillis());
    try {
      searches.create(name, search);
    } catch (IllegalArgumentException e) {
      boolean taken = name != null && searches.find(name).isPresent();
      throw new ApiException(
          taken ? HttpResponseStatus.CONFLICT : HttpResponseStatus.BAD_REQUEST,
          taken ? "SAVED_SEARCH_EXISTS" : "INVALID_SAVED_SEARCH",
          e.getMessage());
    }
    audit(user, "POST", name, query);
    SplunkEntities.answer(
        exchange, HttpResponseStatus.CREATED, PATH, List.of(entity(name, search)));
  }

  /** Records a saved-search change in the audit trail. */
  private void audit(String user, String operation, String name, String query) {
    io.quarry.server.audit.AuditEvent event =
        io.quarry.server.auth.Authenticator.auditEvent(user, "edit_saved_searches", "succeeded")
            .with("operation", operation)
            .with("object", name);
    authenticator.audit().record(query == null ? event : event.with("search", query));
  }

  /** Whether {@code user} may change another user's saved search ({@code admin_all_objects}). */
  private boolean mayChangeAny(String user) {
    return authenticator.access(user).has(io.quarry.server.config.Role.ADMIN_ALL_OBJECTS);
  }

  private void update(Exchange exchange) throws IOException {
    String user = user(exchange);
    refuseScheduling(exchange);
    String name = exchange.pathParameter("name");
    requireOwner(user, name, "change");
    if (exchange.parameter("search") != null) {
      checkLength(exchange.parameter("search"));
    }
    SavedSearch changed;
    try {
      changed =
          searches
              .update(
                  name,
                  s ->
                      new SavedSearch(
                          or(exchange.parameter("search"), s.search()),
                          or(exchange.parameter("description"), s.description()),
                          or(exchange.parameter("dispatch.earliest_time"), s.earliest()),
                          or(exchange.parameter("dispatch.latest_time"), s.latest()),
                          s.owner(),
                          System.currentTimeMillis()))
              .orElseThrow(() -> notFound(name));
    } catch (IllegalArgumentException e) {
      throw new ApiException(HttpResponseStatus.FORBIDDEN, "CONFIGURED", e.getMessage());
    }
    audit(user, "POST", name, changed.search());
    SplunkEntities.answer(exchange, HttpResponseStatus.OK, PATH, List.of(entity(name, changed)));
  }

  private void delete(Exchange exchange) throws IOException {
    String user = user(exchange);
    String name = exchange.pathParameter("name");
    requireOwner(user, name, "delete");
    try {
      if (!searches.delete(name)) {
        throw notFound(name);
      }
    } catch (IllegalArgumentException e) {
      throw new ApiException(HttpResponseStatus.FORBIDDEN, "CONFIGURED", e.getMessage());
    }
    audit(user, "DELETE", name, null);
    SplunkEntities.answer(exchange, HttpResponseStatus.OK, PATH, List.of());
  }

  private void dispatch(Exchange exchange) {
    String user = user(exchange);
    String name = exchange.pathParameter("name");
    SavedSearch saved = require(name);
    String earliest = or(exchange.parameter("dispatch.earliest_time"), saved.earliest());
    String latest = or(exchange.parameter("dispatch.latest_time"), saved.latest());
    Duration timeLimit = SearchExportRoute.maxTime(exchange.parameter("max_time"));
    SearchJob job =
        jobRoutes
            .submission()
            .submit(
                authenticator.access(user),
                saved.search(),
                earliest.isEmpty() ? null : earliest,
                latest.isEmpty() ? null : latest,
                timeLimit,
                null);
    searches.dispatched(name, job.id());
    if (SplunkJobRoutes.xml(exchange)) {
      exchange.text(
          HttpResponseStatus.CREATED,
          SplunkAtom.CONTENT_TYPE,
          SplunkAtom.response(Map.of("sid", job.id())));
    } else {
      exchange.json(HttpResponseStatus.CREATED, Map.of("sid", job.id()));
    }
  }

  private void history(Exchange exchange) {
    List<SearchJob> visible = jobs.list(authenticator.access(user(exchange)));
    String name = exchange.pathParameter("name");
    require(name);
    List<SplunkEntities.Entity> dispatched = new ArrayList<>();
    for (String sid : searches.history(name)) {
      for (SearchJob job : visible) {
        if (job.id().equals(sid)) { // its title is what the SDK makes a Job of
          Map<String, Object> content = new LinkedHashMap<>();
          content.put("sid", sid);
          content.put("search", job.query());
          dispatched.add(
              new SplunkEntities.Entity(sid, job.owner(), job.created(), "user", content));
        }
      }
    }
    SplunkEntities.answer(exchange, HttpResponseStatus.OK, "search/jobs", dispatched);
  }

  private static void checkLength(String query) {
    if (query.length() > SavedSearchStore.MAX_SEARCH_LENGTH) {
      throw ApiException.badRequest(
          "INVALID_SAVED_SEARCH",
          "A saved search is at most " + SavedSearchStore.MAX_SEARCH_LENGTH + " characters long");
    }
  }

  /**
   * The saved search, when {@code user} owns it or may change any (admin_all_objects).
   *
   * @throws ApiException 404 when there is none, 403 {@code NOT_OWNER} otherwise
   */
  private SavedSearch requireOwner(String user, String name, String verb) {
    SavedSearch saved = require(name);
    if (!saved.owner().equals(user) && !mayChangeAny(user)) {
      authenticator
          .audit()
          .record(
              io.quarry.server.auth.Authenticator.auditEvent(user, "edit_saved_searches", "denied")
                  .with("operation", verb.equals("delete") ? "DELETE" : "POST")
                  .with("object", name)
                  .with("reason", "owned by " + saved.owner()));
      throw new ApiException(
          HttpResponseStatus.FORBIDDEN,
          "NOT_OWNER",
          "Saved search '"
              + name
              + "' belongs to "
              + saved.owner()
              + "; only they or a user with admin_all_objects "
              + verb
              + " it");
    }
    return saved;
  }

  private SavedSearch require(String name) {
    return searches.find(name).orElseThrow(() -> notFound(name));
  }

  private static ApiException notFound(String name) {
    return new ApiException(
        HttpResponseStatus.NOT_FOUND,
        "SAVED_SEARCH_NOT_FOUND",
        "Could not find object id=" + name + " (no saved search of that name)");
  }

  /** Scheduling and alerting settings, which Quarry cannot honour: a 400 rather than a lie. */
  private static void refuseScheduling(Exchange exchange) {
    for (String setting : List.of("is_scheduled", "cron_schedule", "actions", "alert_type")) {
      String value = exchange.parameter(setting);
      if (value != null
          && !value.isBlank()
          && !List.of("0", "false", "always").contains(value.toLowerCase(Locale.ROOT))) {
        throw ApiException.badRequest(
            "UNSUPPORTED_SETTING",
            "'"
                + setting
                + "' is not supported: Quarry has no search scheduler or alerting; run the saved"
                + " search with POST …/dispatch or | savedsearch");
      }
    }
  }

  private static SplunkEntities.Entity entity(String name, SavedSearch search) {
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("search", search.search());
    content.put("description", search.description());
    content.put("dispatch.earliest_time", search.earliest());
    content.put("dispatch.latest_time", search.latest());
    content.put("is_scheduled", false);
    content.put("disabled", false);
    content.put("is_visible", true);
    return new SplunkEntities.Entity(
        name, search.owner(), Instant.ofEpochMilli(search.updatedMillis()), "global", content);
  }

  private static String or(String given, String otherwise) {
    return given == null ? otherwise : given;
  }
}
