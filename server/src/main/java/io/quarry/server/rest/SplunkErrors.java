package io.quarry.server.rest;

import io.quarry.server.http.ApiException;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Route;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Errors of Splunk's endpoints in Splunk's shape, so its SDKs and scripts read them: {@code
 * <response><messages><msg type="ERROR">…</msg></messages></response>} by default (Splunk's default
 * output mode is XML), or with a JSON {@code output_mode} Quarry's JSON error body plus Splunk's
 * {@code "messages": [{"type": "ERROR", "text": …}]}. The status and the stable code stay the same
 * as on the native API.
 */
final class SplunkErrors {
  private SplunkErrors() {}

  /** The route, with its errors answered in Splunk's shape (XML unless JSON is asked for). */
  static Route splunk(Route route) {
    return splunk(route, false);
  }

  /**
   * The route, with its errors answered in Splunk's shape.
   *
   * @param jsonByDefault whether the route answers JSON without an {@code output_mode} (Quarry's
   *     export endpoint does)
   */
  static Route splunk(Route route, boolean jsonByDefault) {
    return exchange -> {
      try {
        route.handle(exchange);
      } catch (ApiException e) {
        throw new SplunkError(e, json(exchange, jsonByDefault));
      }
    };
  }

  /** Whether to answer JSON ({@code output_mode=json|json_rows|json_cols}). */
  private static boolean json(Exchange exchange, boolean jsonByDefault) {
    String mode;
    try {
      mode = exchange.parameter("output_mode");
    } catch (RuntimeException unreadable) {
      return jsonByDefault; // a body that cannot be read as a form
    }
    return mode == null ? jsonByDefault : mode.toLowerCase(Locale.ROOT).startsWith("json");
  }

  private static final class SplunkError extends ApiException {
    private final ApiException error;
    private final boolean json;

    SplunkError(ApiException error, boolean json) {
      super(error.status(), error.code(), error.getMessage(), Map.of(), error.headers());
      this.error = error;
      this.json = json;
      initCause(error);
    }

    @Override
    public Map<String, Object> body() {
      Map<String, Object> body = new LinkedHashMap<>(error.body());
      body.putIfAbsent("messages", List.of(Map.of("type", "ERROR", "text", getMessage())));
      return body;
    }

    @Override
    public void respond(Exchange exchange, Map<String, String> headers) {
      if (json) {
        exchange.json(status(), body(), headers);
        return;
      }
      String type = "ERROR";
      String text = getMessage();
      if (error.body().get("messages") instanceof List<?> messages
          && !messages.isEmpty()
          && messages.getFirst() instanceof Map<?, ?> first) {
        type = String.valueOf(first.get("type"));
        text = String.valueOf(first.get("text"));
      }
      exchange.send(
          status(),
          SplunkAtom.CONTENT_TYPE,
          SplunkAtom.messages(type, text).getBytes(StandardCharsets.UTF_8),
          headers);
    }
  }
}
