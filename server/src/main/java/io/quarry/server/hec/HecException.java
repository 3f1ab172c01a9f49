package io.quarry.server.hec;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.server.http.ApiException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A HEC error with Splunk's numbered code and text, e.g. {@code {"text":"Invalid token","code":4}}.
 * Quarry adds {@code invalid-event-number} where Splunk does, and a {@code reason} saying exactly
 * what was wrong.
 */
public final class HecException extends ApiException {
  private final int code;
  private final Integer invalidEventNumber;
  private final String reason;

  private HecException(
      HttpResponseStatus status, int code, String text, Integer invalidEventNumber, String reason) {
    super(status, "HEC_" + code, text);
    this.code = code;
    this.invalidEventNumber = invalidEventNumber;
    this.reason = reason;
  }

  public static HecException tokenRequired() {
    return new HecException(HttpResponseStatus.UNAUTHORIZED, 2, "Token is required", null, null);
  }

  public static HecException invalidAuthorization() {
    return new HecException(
        HttpResponseStatus.UNAUTHORIZED, 3, "Invalid authorization", null, null);
  }

  public static HecException invalidToken() {
    return new HecException(HttpResponseStatus.FORBIDDEN, 4, "Invalid token", null, null);
  }

  public static HecException noData() {
    return new HecException(HttpResponseStatus.BAD_REQUEST, 5, "No data", null, null);
  }

  public static HecException invalidFormat(int eventNumber, String reason) {
    return new HecException(
        HttpResponseStatus.BAD_REQUEST, 6, "Invalid data format", eventNumber, reason);
  }

  public static HecException incorrectIndex(int eventNumber, String reason) {
    return new HecException(
        HttpResponseStatus.BAD_REQUEST, 7, "Incorrect index", eventNumber, reason);
  }

  public static HecException serverBusy() {
    return new HecException(
        HttpResponseStatus.SERVICE_UNAVAILABLE, 9, "Server is busy", null, null);
  }

  public static HecException serverBusy(String reason) {
    return new HecException(
        HttpResponseStatus.SERVICE_UNAVAILABLE, 9, "Server is busy", null, reason);
  }

  public static HecException channelMissing() {
    return new HecException(
        HttpResponseStatus.BAD_REQUEST,
        10,
        "Data channel is missing",
        null,
        "this token has indexer acknowledgement on: send X-Splunk-Request-Channel (a GUID)"
            + " or ?channel=");
  }

  public static HecException invalidChannel(String channel) {
    return new HecException(
        HttpResponseStatus.BAD_REQUEST,
        11,
        "Invalid data channel",
        null,
        "no acknowledgements are pending on channel '" + channel + "'");
  }

  public static HecException ackDisabled() {
    return new HecException(HttpResponseStatus.BAD_REQUEST, 14, "ACK is disabled", null, null);
  }

  public static HecException eventRequired(int eventNumber) {
    return new HecException(
        HttpResponseStatus.BAD_REQUEST, 12, "Event field is required", eventNumber, null);
  }

  public static HecException eventBlank(int eventNumber) {
    return new HecException(
        HttpResponseStatus.BAD_REQUEST, 13, "Event field cannot be blank", eventNumber, null);
  }

  public int hecCode() {
    return code;
  }

  @Override
  public Map<String, Object> body() {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("text", getMessage());
    body.put("code", code);
    if (invalidEventNumber != null) {
      body.put("invalid-event-number", invalidEventNumber);
    }
    if (reason != null) {
      body.put("reason", reason);
    }
    return body;
  }
}
