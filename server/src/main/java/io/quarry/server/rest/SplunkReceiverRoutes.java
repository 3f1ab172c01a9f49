package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.codecs.store.IndexBusyException;
import io.quarry.codecs.store.InvalidEventException;
import io.quarry.codecs.wal.WriteAheadLog;
import io.quarry.server.auth.Access;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.config.QuarryConfig;
import io.quarry.server.config.Role;
import io.quarry.server.http.ApiException;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import io.quarry.server.ingest.EventBreaker;
import io.quarry.server.ingest.IngestGate;
import io.quarry.server.ingest.IngestService;
import java.io.IOException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Splunk's {@code POST /services/receivers/simple} (what {@code index.submit(…)} of its SDKs
 * calls): the body is raw text, broken into events by the {@code sourcetype}'s rules like HEC's
 * {@code /raw}; {@code index}, {@code host}, {@code source} and {@code sourcetype} come from the
 * query string (the SDKs send the body with a form content type, so it is never read as a form).
 * Authenticated as a user, who needs the {@code edit_tcp} capability (admin has it); internal
 * indexes take no events from here. It answers when the events are durable, with Splunk's {@code
 * <response><results><result>} (or JSON with {@code output_mode=json}). A body is stored whole or
 * not at all: an event its index cannot take (an index-time field that does not parse as its
 * declared type, a value too long) is 400 {@code INVALID_EVENT} naming it, a body over {@code
 * storage.maxBatchBytes} 413 {@code REQUEST_TOO_LARGE}; a busy ingest or index, or a failed write,
 * answers 503 {@code SERVER_BUSY} with {@code Retry-After}, as HEC does.
 */
public final class SplunkReceiverRoutes {
  private static final Logger LOG = Logger.getLogger(SplunkReceiverRoutes.class.getName());
  private static final List<String> PATHS =
      List.of("/services/receivers/simple", "/servicesNS/{owner}/{app}/receivers/simple");

  private final Authenticator authenticator;
  private final IngestService ingest;
  private final String defaultHost;
  private final Clock clock;

  public SplunkReceiverRoutes(
      Authenticator authenticator, IngestService ingest, String defaultHost, Clock clock) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.ingest = requireNonNull(ingest, "ingest is null");
    this.defaultHost = requireNonNull(defaultHost, "defaultHost is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  public void register(Router router) {
    for (String path : PATHS) {
      router.add(HttpMethod.POST, path, SplunkErrors.splunk(this::simple));
    }
  }

  private void simple(Exchange exchange) throws Exception {
    Access access =
        authenticator.requireAccess(
            exchange.header(HttpHeaderNames.AUTHORIZATION), "Sending events");
    access.require(Role.EDIT_TCP, "Sending events through receivers/simple");
    String index = or(exchange.queryParameter("index"), QuarryConfig.DEFAULT_INDEX);
    if (!ingest.hasIndex(index) || index.startsWith("_")) {
      throw ApiException.badRequest(
          "INVALID_INDEX",
          "index '" + index + "' does not exist or takes no events from receivers/simple");
    }
    byte[] body = exchange.bodyBytes();
    if (EventBreaker.isBlank(body)) {
      throw ApiException.badRequest("NO_DATA", "The body holds no event text");
    }
    String host = or(exchange.queryParameter("host"), defaultHost);
    String source = or(exchange.queryParameter("source"), "http-simple");
    String sourcetype = or(exchange.queryParameter("sourcetype"), "http-simple");
    try {
      ingest
          .gate()
          .run(
              exchange.bodyLength(),
              leave -> {
                store(
                    index, ingest.breakRaw(body, sourcetype, host, source, clock.instant()), leave);
                return null;
              });
    } catch (IngestGate.Full e) {
      throw new ApiException(
          HttpResponseStatus.SERVICE_UNAVAILABLE,
          "SERVER_BUSY",
          e.getMessage() + "; retry later",
          Map.of(),
          Map.of("Retry-After", "1"));
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("index", index);
    result.put("bytes", body.length);
    result.put("host", host);
    result.put("source", source);
    result.put("sourcetype", sourcetype);
    // the body is event text, so output_mode is read from the query string only
    String outputMode = exchange.queryParameter("output_mode");
    if (outputMode == null || outputMode.equalsIgnoreCase("xml")) {
      StringBuilder xml = new StringBuilder("<result>");
      result.forEach(
          (key, value) ->
              xml.append('<')
                  .append(key)
                  .append('>')
                  .append(SplunkAtom.escape(String.valueOf(value)))
                  .append("</")
                  .append(key)
                  .append('>'));
      exchange.text(
          HttpResponseStatus.OK,
          SplunkAtom.CONTENT_TYPE,
          SplunkAtom.response(Map.of("results", List.of(xml.append("</result>")))));
    } else {
      exchange.json(HttpResponseStatus.OK, result);
    }
  }

  /**
   * Stores a body's events in one batch: the store checks every event before it stores any, so a
   * body with an event the index cannot take stores nothing (Splunk's answer names no event a
   * client could resume from: a resent body must not store its first events twice). A busy index
   * ({@link IndexBusyException}) is left to the gate, which answers it busy. The ingest pipeline is
   * handed on ({@code leave}) once the events are indexed, while they wait for the log's fsync.
   */
  private void store(String index, EventBreaker.Result broken, Runnable leave) throws IOException {
    try {
      ingest.write(index, broken, broken.events().size(), leave);
    } catch (InvalidEventException e) {
      throw ApiException.badRequest(
          "INVALID_EVENT",
          "event "
              + (e.position() + 1)
              + " cannot be stored: "
              + e.problem()
              + "; nothing of the body is stored");
    } catch (WriteAheadLog.RecordTooLarge e) {
      throw ApiException.requestTooLarge(e.getMessage()); // a retry fails again: not busy
    } catch (IndexBusyException e) {
      throw e;
    } catch (IOException e) {
      LOG.log(Level.WARNING, "storing a receivers/simple body failed; answering 503", e);
      throw new ApiException(
          HttpResponseStatus.SERVICE_UNAVAILABLE,
          "SERVER_BUSY",
          "storage write failed: " + e.getMessage() + " (is the disk full?); retry later",
          Map.of(),
          Map.of("Retry-After", "1"));
    }
  }

  private static String or(String given, String otherwise) {
    return given == null || given.isEmpty() ? otherwise : given;
  }
}
