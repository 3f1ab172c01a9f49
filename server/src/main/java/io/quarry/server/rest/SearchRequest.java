package io.quarry.server.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.ql.parser.QueryParseException;
import io.quarry.ql.plan.SearchPlan;
import io.quarry.server.auth.Access;
import io.quarry.server.http.ApiException;
import io.quarry.server.http.Exchange;
import io.quarry.server.search.SearchService;
import java.io.IOException;
import java.time.Duration;

/**
 * The JSON body of the native search endpoints ({@code /api/v1/search}, {@code /jobs}, {@code
 * /fields}): {@code {"query", "earliest", "latest", …}}, read once with the same errors everywhere
 * — 400 {@code INVALID_BODY} for what is not a JSON object, {@code MISSING_PARAMETER} without a
 * query, {@code INVALID_PARAMETER} for a value of the wrong kind.
 */
record SearchRequest(JsonNode body, String query, String earliest, String latest) {
  private static final ObjectMapper JSON = new ObjectMapper();

  static SearchRequest read(Exchange exchange) {
    JsonNode body;
    try {
      body = exchange.bodyLength() == 0 ? JSON.createObjectNode() : JSON.readTree(exchange.body());
    } catch (JsonProcessingException e) {
      throw ApiException.badRequest(
          "INVALID_BODY", "The body is not JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw ApiException.badRequest("INVALID_BODY", "The body cannot be read: " + e.getMessage());
    }
    if (body == null || !body.isObject()) {
      throw ApiException.badRequest("INVALID_BODY", "The body must be a JSON object");
    }
    String query = text(body, "query");
    if (query == null || query.isBlank()) {
      throw ApiException.badRequest(
          "MISSING_PARAMETER", "'query' is required (the SPL query to run)");
    }
    return new SearchRequest(body, query, text(body, "earliest"), text(body, "latest"));
  }

  /**
   * This request's query planned for a user; see {@link #plan(SearchService, Access, String,
   * String, String)}.
   */
  SearchPlan plan(SearchService search, Access access) {
    return plan(search, access, query, earliest, latest);
  }

  /**
   * Plans a query of a user (reading only the indexes they may search); one that does not parse is
   * a 400 naming where.
   */
  static SearchPlan plan(
      SearchService search, Access access, String query, String earliest, String latest) {
    return plan(search, access, query, earliest, latest, false, false);
  }

  /**
   * {@link #plan}, writing nothing when {@code writeNothing} ({@code explain}), refusing a query
   * that writes when {@code readOnly} (checked again as it is planned: {@link
   * SearchService#plan(String, String, String, Access, boolean, boolean)}).
   */
  static SearchPlan plan(
      SearchService search,
      Access access,
      String query,
      String earliest,
      String latest,
      boolean writeNothing,
      boolean readOnly) {
    try {
      return search.plan(query, earliest, latest, access, writeNothing, readOnly);
    } catch (QueryParseException e) {
      throw QueryErrors.of(e);
    }
  }

  /**
   * Refuses a query that writes where {@code where} runs it on the user's behalf ({@link
   * SearchService#requireReadOnly}: 400 {@code SEARCH_WRITES}); one that does not parse is a 400
   * naming where.
   */
  void requireReadOnly(SearchService search, String where) {
    try {
      search.requireReadOnly(query, where);
    } catch (QueryParseException e) {
      throw QueryErrors.of(e);
    }
  }

  /** A boolean field of the body, or {@code fallback} when absent. */
  boolean bool(String field, boolean fallback) {
    JsonNode value = body.get(field);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (!value.isBoolean()) {
      throw ApiException.badRequest("INVALID_PARAMETER", "'" + field + "' must be true or false");
    }
    return value.booleanValue();
  }

  /** A text field of the body, or null. */
  String text(String field) {
    return text(body, field);
  }

  /** A positive number of seconds, or {@code fallback} when absent. */
  Duration seconds(String field, Duration fallback) {
    JsonNode value = body.get(field);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (!value.isNumber() || !(value.doubleValue() > 0)) {
      throw ApiException.badRequest(
          "INVALID_PARAMETER", "'" + field + "' must be a positive number of seconds");
    }
    return Duration.ofMillis((long) Math.ceil(value.doubleValue() * 1000));
  }

  /** A positive whole number, or {@code fallback} when absent. */
  int positiveInt(String field, int fallback) {
    JsonNode value = body.get(field);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (!value.canConvertToInt() || value.intValue() < 1) {
      throw ApiException.badRequest(
          "INVALID_PARAMETER", "'" + field + "' must be a positive whole number");
    }
    return value.intValue();
  }

  private static String text(JsonNode body, String field) {
    JsonNode value = body.get(field);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isValueNode()) {
      throw ApiException.badRequest("INVALID_PARAMETER", "'" + field + "' must be a string");
    }
    return value.asText();
  }
}
