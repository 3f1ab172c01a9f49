package io.quarry.server.hec;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.codecs.store.InvalidEventException;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.config.HecToken;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import io.quarry.server.ingest.EventBreaker;
import io.quarry.server.ingest.IndexedEvent;
import io.quarry.server.ingest.IngestGate;
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
  private static final Map<String, Object> QUEUES_FULL =
      status("HEC is unhealthy, queues are full", 18);

  /** Where Splunk clients name their data channel. */
  static final String CHANNEL_HEADER = "X-Splunk-Request-Channel";

  private static final int MAX_CHANNEL_LENGTH = 128;
  private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();

  private final Authenticator authenticator;
  private final IngestService ingest;
  private final String defaultHost;
  private final Clock clock;
  private final AckChannels acks;
  private final io.quarry.server.metricindex.MetricIngest metricIngest;

  public HecRoutes(
      Authenticator authenticator, IngestService ingest, String defaultHost, Clock clock) {
    this(
        authenticator,
        ingest,
        new io.quarry.server.metricindex.MetricIngest(
            io.quarry.codecs.metricstore.MetricStore.empty()),
        defaultHost,
        clock);
  }

  /** As above, taking metric data points for the metric indexes of {@code metricIngest}. */
  public HecRoutes(
      Authenticator authenticator,
      IngestService ingest,
      io.quarry.server.metricindex.MetricIngest metricIngest,
      String defaultHost,
      Clock clock) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.ingest = requireNonNull(ingest, "ingest is null");
    this.metricIngest = requireNonNull(metricIngest, "metricIngest is null");
    this.defaultHost = requireNonNull(defaultHost, "defaultHost is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.acks = new AckChannels(clock);
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
    for (String path : List.of("/services/collector/ack", "/services/collector/ack/1.0")) {
      router.add(HttpMethod.POST, path, this::ack);
    }
    router.busyError("/services/collector", HecException::serverBusy);
    router.credentialsError("/services/collector", HecException::tokenRequired);
  }

  private void event(Exchange exchange) throws Exception {
    HecToken token = authenticate(exchange);
    String channel = channel(exchange, token);
    admitted(
        exchange,
        leave -> {
          HecEventParser.Result result =
              new HecEventParser(token, ingest, defaultHost, clock.instant())
                  .autoExtractTimestamp(
                      "true".equalsIgnoreCase(exchange.queryParameter("auto_extract_timestamp")))
                  .metricIndexes(metricIngest)
                  .parse(exchange.bodyBytes());
          // the events before a bad envelope are stored, as Splunk does (invalid-event-number
          // tells the client where to resume)
          // the pipeline is handed on at the events' fsync wait unless metric points follow
          write(result.events(), result.pointCount() == 0 ? leave : () -> {});
          writePoints(result.points(), result.pointCount(), result.events());
          if (result.error().isPresent()) {
            throw result.error().get();
          }
          return null;
        });
    succeed(exchange, token, channel);
  }

  private void raw(Exchange exchange) throws Exception {
    HecToken token = authenticate(exchange);
    String channel = channel(exchange, token);
    if (exchange.bodyLength() == 0) {
      throw HecException.noData();
    }
    String index = parameterOr(exchange, "index", token.defaultIndex());
    if (metricIngest.hasIndex(index)) {
      throw HecException.incorrectIndex(
          0,
          "index '"
              + index
              + "' is a metric index: /services/collector/raw takes events; send metric data"
              + " points to /services/collector/event");
    }
    HecEventParser.requireWritable(ingest, token, index, 0);
    admitted(
        exchange,
        leave -> {
          EventBreaker.Result broken =
              ingest.breakRaw(
                  exchange.bodyBytes(),
                  parameterOr(exchange, "sourcetype", "httpevent"),
                  parameterOr(exchange, "host", defaultHost),
                  parameterOr(exchange, "source", "http:" + token.name()),
                  clock.instant());
          if (broken.events().isEmpty()) {
            throw HecException.noData();
          }
          try {
            // the store checks each event before it stores any
            write(index, broken, broken.events().size(), leave);
          } catch (InvalidEventException e) {
            // as for /event: the events before the bad one are stored
            write(index, broken, e.position(), leave);
            throw HecException.invalidFormat(e.position(), e.problem());
          }
          return null;
        });
    succeed(exchange, token, channel);
  }

  /**
   * Runs the parsing and storing of one request on an ingest pipeline, or answers busy; the work
   * hands the pipeline on when its events only wait for the log's fsync ({@link
   * IngestGate.LeavingWork}).
   */
  private void admitted(Exchange exchange, IngestGate.LeavingWork<Void> work) throws Exception {
    try {
      ingest.gate().run(exchange.bodyLength(), work);
    } catch (IngestGate.Full e) {
      throw HecException.serverBusy(e.getMessage() + "; retry later");
    }
  }

  private void succeed(Exchange exchange, HecToken token, String channel) {
    if (!token.ack()) {
      exchange.json(HttpResponseStatus.OK, SUCCESS);
      return;
    }
    Map<String, Object> body = new LinkedHashMap<>(SUCCESS);
    body.put("ackId", acks.acknowledge(channel));
    exchange.json(HttpResponseStatus.OK, body);
  }

  /**
   * {@code POST /services/collector/ack?channel=…} with {@code {"acks":[0,1]}}: answers {@code
   * {"acks":{"0":true,"1":false}}}.
   */
  private void ack(Exchange exchange) throws IOException {
    HecToken token = authenticate(exchange);
    if (!token.ack()) {
      throw HecException.ackDisabled();
    }
    String channel = channel(exchange, token);
    List<Long> ids = new java.util.ArrayList<>();
    try {
      com.fasterxml.jackson.databind.JsonNode request = JSON.readTree(exchange.body());
      com.fasterxml.jackson.databind.JsonNode list = request == null ? null : request.get("acks");
      if (list == null || !list.isArray()) {
        throw HecException.invalidFormat(0, "the body must be {\"acks\": [ackId, ...]}");
      }
      for (com.fasterxml.jackson.databind.JsonNode id : list) {
        if (!id.canConvertToLong() || !id.isIntegralNumber()) {
          throw HecException.invalidFormat(0, "ackIds are integers, not " + id);
        }
        ids.add(id.longValue());
      }
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw HecException.invalidFormat(0, "malformed JSON: " + e.getOriginalMessage());
    }
    acks.maintain();
    exchange.json(HttpResponseStatus.OK, Map.of("acks", acks.query(channel, ids)));
  }

  /** The request's data channel: required when the token acknowledges, else optional. */
  private static String channel(Exchange exchange, HecToken token) {
    String channel = exchange.header(CHANNEL_HEADER);
    if (channel == null || channel.isBlank()) {
      channel = exchange.queryParameter("channel");
    }
    if (channel == null || channel.isBlank()) {
      if (token.ack()) {
        throw HecException.channelMissing();
      }
      return null;
    }
    if (channel.length() > MAX_CHANNEL_LENGTH) {
      throw HecException.invalidChannel(channel.substring(0, 32) + "...");
    }
    return channel;
  }

  /**
   * Stores events; a storage failure (a full disk) becomes HEC's "server busy" so shippers retry
   * later. Nothing acknowledged before is affected: the log is cut back to its last whole record. A
   * batch too large for a log record is refused before any of the body is stored (413); a failure
   * after some indexes' batches of a multi-index body were stored answers 503 naming them ({@link
   * HecException#partlyStored}).
   */
  private void write(List<IndexedEvent> events, Runnable indexed) {
    try {
      ingest.write(events, indexed);
    } catch (io.quarry.server.ingest.PartlyStoredException e) {
      LOG.log(Level.WARNING, e.getMessage() + "; answering 503 naming the stored indexes", e);
      throw HecException.partlyStored(e.getMessage(), e.storedIndexes(), e.storedEvents());
    } catch (io.quarry.codecs.wal.WriteAheadLog.RecordTooLarge e) {
      // 413 as for a body over server.maxRequestBytes, not "busy": a retry fails again
      throw io.quarry.server.http.ApiException.requestTooLarge(e.getMessage());
    } catch (io.quarry.codecs.store.IndexBusyException e) {
      throw HecException.serverBusy(e.getMessage() + "; retry later"); // not a failure: no warning
    } catch (IOException e) {
      LOG.log(Level.WARNING, "storing " + events.size() + " events failed; answering 503", e);
      throw HecException.serverBusy(
          "storage write failed: " + e.getMessage() + " (is the disk full?); retry later");
    }
  }

  /** Stores the first {@code count} events of a body in one index, as {@link #write} does. */
  private void write(String index, EventBreaker.Result broken, int count, Runnable indexed) {
    try {
      ingest.write(index, broken, count, indexed);
    } catch (io.quarry.codecs.wal.WriteAheadLog.RecordTooLarge e) {
      // 413 as for a body over server.maxRequestBytes, not "busy": a retry fails again
      throw io.quarry.server.http.ApiException.requestTooLarge(e.getMessage());
    } catch (io.quarry.codecs.store.IndexBusyException e) {
      throw HecException.serverBusy(e.getMessage() + "; retry later"); // not a failure: no warning
    } catch (IOException e) {
      LOG.log(Level.WARNING, "storing " + count + " events failed; answering 503", e);
      throw HecException.serverBusy(
          "storage write failed: " + e.getMessage() + " (is the disk full?); retry later");
    }
  }

  /**
   * Stores metric data points after the body's {@code events} were stored; a storage failure
   * answers as {@link #write} does, naming the event indexes already stored when there are any.
   */
  private void writePoints(
      Map<String, io.quarry.codecs.metricstore.MetricBatch> points,
      int count,
      List<IndexedEvent> events) {
    if (count == 0) {
      return;
    }
    try {
      metricIngest.write(points);
    } catch (IOException e) {
      LOG.log(Level.WARNING, "storing " + count + " metric points failed; answering 503", e);
      if (!events.isEmpty()) {
        List<String> stored = events.stream().map(IndexedEvent::index).distinct().toList();
        throw HecException.partlyStored(
            "storing " + count + " metric points failed (" + e.getMessage() + ") after the events",
            stored,
            events.size());
      }
      throw HecException.serverBusy(
          "storage write failed: " + e.getMessage() + " (is the disk full?); retry later");
    }
  }

  /**
   * Splunk's health answer: 503 code 18 "HEC is unhealthy, queues are full" with {@code
   * Retry-After} while a request would be refused as busy — every ingest pipeline busy and the
   * queue more than half full, or an index whose compaction lags behind ingest (Splunk has no index
   * of its own refusing: its blocked queues are the node's) — else 200 code 17. Asked with a HEC
   * token ({@code Authorization: Splunk <token>}), it asks the indexes that token may write and its
   * {@code reason} names the busy ones ({@code busy-indexes}, a Quarry extension); asked without
   * one (or with an unknown one) it asks every index that takes shipped events and names none.
   */
  private void health(Exchange exchange) {
    if (ingest.gate().saturated()) {
      exchange.json(
          HttpResponseStatus.SERVICE_UNAVAILABLE, QUEUES_FULL, Map.of("Retry-After", "1"));
      return;
    }
    HecToken token = healthToken(exchange);
    Map<String, String> busy =
        ingest.busyIndexes(index -> token == null ? !index.startsWith("_") : token.mayWrite(index));
    if (busy.isEmpty()) {
      exchange.json(HttpResponseStatus.OK, HEALTHY);
      return;
    }
    Map<String, Object> body = new LinkedHashMap<>(QUEUES_FULL);
    if (token == null) {
      body.put(
          "reason",
          "compaction lags behind ingest in "
              + busy.size()
              + (busy.size() == 1 ? " index" : " indexes")
              + " (ask with a HEC token to see which of its indexes)");
    } else {
      body.put("reason", String.join("; ", busy.values()));
      body.put("busy-indexes", List.copyOf(busy.keySet()));
    }
    exchange.json(HttpResponseStatus.SERVICE_UNAVAILABLE, body, Map.of("Retry-After", "1"));
  }

  /** The HEC token a health request presents, or null: health needs none and refuses none. */
  private HecToken healthToken(Exchange exchange) {
    String authorization = exchange.header(HttpHeaderNames.AUTHORIZATION);
    if (authorization == null || authorization.isBlank()) {
      return null;
    }
    return Authenticator.presentedHecToken(authorization)
        .flatMap(authenticator::hecToken)
        .orElse(null);
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
