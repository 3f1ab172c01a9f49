package io.quarry.server.hec;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.codecs.store.Event;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.config.QuarryConfig.HecToken;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import io.quarry.server.ingest.IndexedEvent;
import io.quarry.server.ingest.IngestService;
import java.io.IOException;
import java.time.Clock;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/** The HEC endpoints under {@code /services/collector}. */
public final class HecRoutes {
  private static final Logger LOG = Logger.getLogger(HecRoutes.class.getName());
  private static final Map<String, Object> SUCCESS = status("Success", 0);
  private static final Map<String, Object> HEALTHY = status("HEC is healthy", 17);

  private final Authenticator authenticator;
  private final IngestService ingest;
  private final String defaultHost;
  private final Clock clock;

  public HecRoutes(
      Authenticator authenticator, IngestService ingest, String defaultHost, Clock clock) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.ingest = requireNonNull(ingest, "ingest is null");
    this.defaultHost = requireNonNull(defaultHost, "defaultHost is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  public void register(Router router) {
    for (String path :
        List.of(
            "/services/collector",
            "/services/collector/event",
            "/services/collector/event/1.0",
            "/services/collector/1.0")) {
      router.add(HttpMethod.POST, path, this::event);
    }
    for (String path : List.of("/services/collector/raw", "/services/collector/raw/1.0")) {
      router.add(HttpMethod.POST, path, this::raw);
    }
    for (String path : List.of("/services/collector/health", "/services/collector/health/1.0")) {
      router.add(HttpMethod.GET, path, this::health);
    }
    router.busyError("/services/collector", HecException::serverBusy);
  }

  private void event(Exchange exchange) throws Exception {
    HecToken token = authenticate(exchange);
    HecEventParser.Result result =
        new HecEventParser(token, ingest, defaultHost, clock.instant()).parse(exchange.body());
    write(result.events());
    if (result.error().isPresent()) {
      throw result.error().get();
    }
    exchange.json(HttpResponseStatus.OK, SUCCESS);
  }

  private void raw(Exchange exchange) throws Exception {
    HecToken token = authenticate(exchange);
    if (exchange.bodyLength() == 0) {
      throw HecException.noData();
    }
    String index = parameterOr(exchange, "index", token.defaultIndex());
    if (!ingest.hasIndex(index)) {
      throw HecException.incorrectIndex(0, "index '" + index + "' does not exist");
    }
    if (!token.mayWrite(index)) {
      throw HecException.incorrectIndex(
          0, "token '" + token.name() + "' may not write to index '" + index + "'");
    }
    List<Event> events =
        ingest.breakRaw(
            exchange.bodyAsString(),
            parameterOr(exchange, "sourcetype", "httpevent"),
            parameterOr(exchange, "host", defaultHost),
            parameterOr(exchange, "source", "http:" + token.name()),
            clock.instant());
    if (events.isEmpty()) {
      throw HecException.noData();
    }
    write(events.stream().map(e -> new IndexedEvent(index, e)).toList());
    exchange.json(HttpResponseStatus.OK, SUCCESS);
  }

  /**
   * Stores events; a storage failure (a full disk) becomes HEC's "server busy" so shippers retry
   * later. Nothing acknowledged before is affected: the log is cut back to its last whole record.
   */
  private void write(List<IndexedEvent> events) {
    try {
      ingest.write(events);
    } catch (IOException e) {
      LOG.log(Level.WARNING, "storing " + events.size() + " events failed; answering 503", e);
      throw HecException.serverBusy(
          "storage write failed: " + e.getMessage() + " (is the disk full?); retry later");
    }
  }

  private void health(Exchange exchange) {
    exchange.json(HttpResponseStatus.OK, HEALTHY);
  }

  private HecToken authenticate(Exchange exchange) {
    String authorization = exchange.header(HttpHeaderNames.AUTHORIZATION);
    if (authorization == null || authorization.isBlank()) {
      throw HecException.tokenRequired();
    }
    String presented =
        Authenticator.presentedHecToken(authorization)
            .orElseThrow(HecException::invalidAuthorization);
    return authenticator.hecToken(presented).orElseThrow(HecException::invalidToken);
  }

  private static String parameterOr(Exchange exchange, String name, String fallback) {
    String value = exchange.queryParameter(name);
    return value == null || value.isBlank() ? fallback : value;
  }

  /** A HEC status body, its keys in Splunk's order. */
  private static Map<String, Object> status(String text, int code) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("text", text);
    body.put("code", code);
    return Collections.unmodifiableMap(body);
  }
}
