package io.quarry.server.rest;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.ql.parser.QueryParseException;
import io.quarry.server.http.ApiException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a query error into a 400 whose body serves both kinds of caller: Splunk's {@code messages}
 * list and Quarry's typed {@code error} object with the position, the offending token, what was
 * expected and the query with a caret under the problem.
 */
final class QueryErrors {
  private QueryErrors() {}

  static ApiException of(QueryParseException e) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("line", e.position().line());
    details.put("column", e.position().column());
    details.put("offset", e.position().offset());
    if (e.token() != null) {
      details.put("token", e.token());
    }
    if (e.expected() != null) {
      details.put("expected", e.expected());
    }
    details.put("context", e.render());
    return new ApiException(
        HttpResponseStatus.BAD_REQUEST, "QUERY_PARSE", e.getMessage(), details) {
      @Override
      public Map<String, Object> body() {
        Map<String, Object> body = new LinkedHashMap<>(super.body());
        body.put(
            "messages",
            List.of(Map.of("type", "FATAL", "text", "Error in search: " + getMessage())));
        return body;
      }
    };
  }
}
