package io.quarry.server.search;

import io.quarry.ql.parser.QueryParseException;
import io.quarry.server.http.ApiException;

/**
 * The HTTP status and stable error code a failed search is answered with, as {@code /metrics}
 * counts it ({@code quarry_search_failures_total{stage,status,code}}): an {@link ApiException}'s
 * own, 400 {@code QUERY_PARSE} for a query that does not parse (the routes make it that {@link
 * ApiException}), anything else 500 {@code INTERNAL}, as the HTTP layer answers it. The codes are
 * the API's few stable ones, never a message or an exception's class, so the counter's series stay
 * few.
 */
record FailureCode(int status, String code) {
  static final FailureCode PARSE = new FailureCode(400, "QUERY_PARSE");
  static final FailureCode INTERNAL = new FailureCode(500, "INTERNAL");

  static FailureCode of(Throwable failure) {
    if (failure instanceof ApiException api) {
      return new FailureCode(api.status().code(), api.code());
    }
    return failure instanceof QueryParseException ? PARSE : INTERNAL;
  }
}
