package io.quarry.server.http;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A request that cannot be served, with the HTTP status, a stable error code and details for the
 * JSON body: {@code {"error":{"code":"…","message":"…", …details}}}.
 */
public class ApiException extends RuntimeException {
  private final HttpResponseStatus status;
  private final String code;
  private final Map<String, Object> details;
  private final Map<String, String> headers;

  public ApiException(HttpResponseStatus status, String code, String message) {
    this(status, code, message, Map.of());
  }

  public ApiException(
      HttpResponseStatus status, String code, String message, Map<String, Object> details) {
    this(status, code, message, details, Map.of());
  }

  public ApiException(
      HttpResponseStatus status,
      String code,
      String message,
      Map<String, Object> details,
      Map<String, String> headers) {
    super(requireNonNull(message, "message is null"));
    this.status = requireNonNull(status, "status is null");
    this.code = requireNonNull(code, "code is null");
    this.details = new LinkedHashMap<>(details);
    this.headers = Map.copyOf(headers);
  }

  public HttpResponseStatus status() {
    return status;
  }

  public String code() {
    return code;
  }

  /** Extra response headers, such as {@code WWW-Authenticate}. */
  public Map<String, String> headers() {
    return headers;
  }

  /** The JSON body of the error. */
  public Map<String, Object> body() {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", getMessage());
    error.putAll(details);
    return Map.of("error", error);
  }

  /**
   * Writes this error as the response: its JSON body by default; an API with its own error shape
   * (Splunk's XML messages) overrides this.
   *
   * @param headers the headers to send: {@link #headers()} and what the server adds
   */
  public void respond(Exchange exchange, Map<String, String> headers) {
    exchange.json(status, body(), headers);
  }

  /**
   * An error with the HTTP status {@code status} (a number, so that layers which only decide what
   * went wrong need no Netty type).
   */
  public static ApiException of(
      int status,
      String code,
      String message,
      Map<String, Object> details,
      Map<String, String> headers) {
    return new ApiException(HttpResponseStatus.valueOf(status), code, message, details, headers);
  }

  /** 401 asking for HTTP Basic credentials. */
  public static ApiException unauthorized(String message) {
    return new ApiException(
        HttpResponseStatus.UNAUTHORIZED,
        "UNAUTHORIZED",
        message,
        Map.of(),
        Map.of("WWW-Authenticate", "Basic realm=\"quarry\""));
  }

  /** 403: authenticated, but not allowed to do this. */
  public static ApiException forbidden(String message) {
    return new ApiException(HttpResponseStatus.FORBIDDEN, "FORBIDDEN", message);
  }

  public static ApiException badRequest(String code, String message) {
    return new ApiException(HttpResponseStatus.BAD_REQUEST, code, message);
  }

  /**
   * 413 {@code REQUEST_TOO_LARGE}: a body over {@code server.maxRequestBytes}, or a batch whose
   * write-ahead log record would pass the log's limit ({@code WriteAheadLog.RecordTooLarge}) — a
   * retry of the same request fails again, so it is not 503.
   */
  public static ApiException requestTooLarge(String message) {
    return new ApiException(
        HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "REQUEST_TOO_LARGE", message);
  }
}
