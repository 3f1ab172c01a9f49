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

  private final java.util.List<String> storedIndexes; // null unless part of the body was stored
  private final int storedEvents;

  private HecException(
      HttpResponseStatus status, int code, String text, Integer invalidEventNumber, String reason) {
    this(status, code, text, invalidEventNumber, reason, null, 0);
  }

  private HecException(
      HttpResponseStatus status,
      int code,
      String text,
      Integer invalidEventNumber,
      String reason,
      java.util.List<String> storedIndexes,
      int storedEvents) {
    super(status, "HEC_" + code, text);
    this.code = code;
    this.invalidEventNumber = invalidEventNumber;
    this.reason = reason;
    this.storedIndexes = storedIndexes;
    this.storedEvents = storedEvents;
  }

  /**
   * 503 code 9 for a multi-index body whose write failed after the events for {@code stored} were
   * stored (a full disk, or an index that turned busy after every index was asked before the first
   * write): {@code stored-indexes} and {@code stored-events} say what of the body is stored, so a
   * client resends only the envelopes for the other indexes. Splunk has no such answer; without it
   * a resent body would store those events twice.
   */
  public static HecException partlyStored(
      String reason, java.util.List<String> stored, int storedEvents) {
    return new HecException(
        HttpResponseStatus.SERVICE_UNAVAILABLE,
        9,
        "Server is busy",
        null,
        reason
            + "; the events for "
            + stored
            + " are stored: resend only the events for other indexes",
        java.util.List.copyOf(stored),
        storedEvents);
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
    if (storedIndexes != null) {
      body.put("stored-indexes", storedIndexes);
      body.put("stored-events", storedEvents);
    }
    return body;
  }
}
