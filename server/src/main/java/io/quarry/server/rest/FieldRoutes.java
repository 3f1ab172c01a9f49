package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.plan.SearchPlan;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import io.quarry.server.search.SearchService;
import io.quarry.server.search.SearchStats;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /api/v1/fields}: what a fields sidebar shows for a search — every field of its first
 * {@code maxEvents} results (search-time extracted fields included) with its type, how many results
 * have it, distinct count, numeric range and top values. It runs {@code <query> | head maxEvents |
 * fieldsummary maxvals=maxValues}, a search the user did not submit as such: never one that writes
 * (400 {@code SEARCH_WRITES}, {@link SearchService#requireReadOnly}).
 */
public final class FieldRoutes {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final int DEFAULT_MAX_EVENTS = 10_000;
  static final int DEFAULT_MAX_VALUES = 10;

  private final Authenticator authenticator;
  private final SearchService search;

  public FieldRoutes(Authenticator authenticator, SearchService search) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.search = requireNonNull(search, "search is null");
  }

  public void register(Router router) {
    router.add(HttpMethod.POST, "/api/v1/fields", this::fields);
  }

  private void fields(Exchange exchange) throws IOException {
    io.quarry.server.auth.Access access =
        authenticator.requireAccess(
            exchange.header(HttpHeaderNames.AUTHORIZATION), "Field summary");
    SearchRequest request = SearchRequest.read(exchange);
    request.requireReadOnly(search, "The field summary (/api/v1/fields runs the search again)");
    int maxEvents = request.positiveInt("maxEvents", DEFAULT_MAX_EVENTS);
    int maxValues = request.positiveInt("maxValues", DEFAULT_MAX_VALUES);
    String summary =
        request.query() + " | head " + maxEvents + " | fieldsummary maxvals=" + maxValues;
    // parse errors point into the query as sent: the suffix comes after it
    List<Page> pages = new ArrayList<>();
    SearchStats stats;
    // admitted before planning: subsearches run while the query is planned
    try (io.quarry.server.auth.AdmittedSearch admitted =
        io.quarry.server.auth.AdmittedSearch.admit(authenticator, access, summary, null)) {
      SearchPlan plan =
          admitted.plan(
              () ->
                  SearchRequest.plan(
                      search, access, summary, request.earliest(), request.latest(), false, true));
      io.quarry.server.search.SearchControl control =
          new io.quarry.server.search.SearchControl()
              .planning(admitted.planningCpu(), admitted.planningElapsed());
      try {
        stats =
            search.run(summary, plan, admitted.timeLimit(search.maxTime()), control, pages::add);
        admitted.ended(plan, stats, control);
      } catch (IOException | RuntimeException | Error e) {
        admitted.failed(plan, e);
        throw e;
      }
    }
    List<Map<String, Object>> fields = new ArrayList<>();
    for (Page page : pages) {
      for (int row = 0; row < page.positionCount(); row++) {
        fields.add(field(page, row));
      }
    }
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("eventsSummarized", Math.min(stats.eventsMatched(), maxEvents));
    answer.put("fields", fields);
    answer.put("messages", stats.messages());
    exchange.json(HttpResponseStatus.OK, answer);
  }

  private static Map<String, Object> field(Page page, int row) throws IOException {
    Map<String, Object> field = new LinkedHashMap<>();
    long count = number(page, "count", row);
    long numeric = number(page, "numeric_count", row);
    field.put("name", text(page, "field", row));
    field.put("type", numeric > 0 && numeric >= count ? "number" : "string");
    field.put("count", count);
    field.put("distinctCount", number(page, "distinct_count", row));
    field.put("isExact", Boolean.TRUE.equals(value(page, "is_exact", row)));
    field.put("numericCount", numeric);
    if (numeric > 0) {
      field.put("min", value(page, "min", row));
      field.put("max", value(page, "max", row));
      field.put("mean", value(page, "mean", row));
    }
    field.put("topValues", JSON.readTree(text(page, "values", row)));
    return field;
  }

  private static Object value(Page page, String column, int row) {
    int index = page.schema().indexOf(column);
    return index < 0 ? null : ResultValues.typed(page.block(index), row);
  }

  private static String text(Page page, String column, int row) {
    Object value = value(page, column, row);
    return value == null ? null : value.toString();
  }

  private static long number(Page page, String column, int row) {
    Object value = value(page, column, row);
    return value instanceof Number n ? n.longValue() : 0;
  }
}
