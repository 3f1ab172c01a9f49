package io.quarry.server.metricindex;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.codecs.metricstore.MetricPoint;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.config.HecToken;
import io.quarry.server.http.ApiException;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /api/v1/metrics/import/prometheus?index=<metric index>[&host=…]}: a body in the
 * Prometheus text exposition format ({@link PrometheusText}), authorized by a HEC token ({@code
 * Authorization: Splunk <token>} or {@code Bearer}) that may write the index, as VictoriaMetrics'
 * import endpoint of the same name takes it. Every other query parameter but {@code index} is a
 * dimension added to each sample that lacks it (e.g. {@code host}, {@code job}). The body is parsed
 * whole before anything is stored: a bad line is a 400 naming it and nothing of the body is kept.
 * Answers {@code {"points": n}} once they are durable.
 *
 * <p>{@code POST /api/v1/write} (also {@code /api/v1/metrics/import/prometheus/write}): Prometheus
 * remote-write 1.0 ({@link PrometheusRemoteWrite}: snappy-compressed protobuf), the path
 * Prometheus' own receiver and VictoriaMetrics serve, with the same token, {@code index} and
 * dimension parameters. The body is decoded whole before anything is stored; a malformed one is a
 * 400 {@code INVALID_REMOTE_WRITE} (Prometheus does not retry a 4xx), a storage failure a 503 (it
 * retries), a remote-write 2.0 body a 415. Answers 204 once the points are durable.
 */
public final class PrometheusImportRoute {
  public static final String PATH = "/api/v1/metrics/import/prometheus";
  public static final String REMOTE_WRITE_PATH = "/api/v1/write";
  public static final String REMOTE_WRITE_ALIAS = PATH + "/write";

  private final Authenticator authenticator;
  private final MetricIngest ingest;
  private final Clock clock;

  public PrometheusImportRoute(Authenticator authenticator, MetricIngest ingest, Clock clock) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.ingest = requireNonNull(ingest, "ingest is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  public void register(Router router) {
    router.add(HttpMethod.POST, PATH, this::importText);
    router.add(HttpMethod.POST, REMOTE_WRITE_PATH, this::remoteWrite);
    router.add(HttpMethod.POST, REMOTE_WRITE_ALIAS, this::remoteWrite);
  }

  private void remoteWrite(Exchange exchange) throws IOException {
    String index = index(exchange);
    String type = exchange.header(HttpHeaderNames.CONTENT_TYPE);
    if (type != null && type.contains("io.prometheus.write.v2")) {
      throw new ApiException(
          HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE,
          "UNSUPPORTED_REMOTE_WRITE_VERSION",
          "remote-write 2.0 is not supported: send remote-write 1.0"
              + " (protobuf_message: prometheus.WriteRequest)");
    }
    String encoding = exchange.header(HttpHeaderNames.CONTENT_ENCODING);
    if (encoding != null && !encoding.equalsIgnoreCase("snappy")) {
      throw new ApiException(
          HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE,
          "UNSUPPORTED_CONTENT_ENCODING",
          "a remote-write body is snappy-compressed (Content-Encoding: snappy), not " + encoding);
    }
    List<MetricPoint> points;
    byte[] body;
    try (var in = exchange.body()) {
      body = in.readAllBytes();
    }
    try {
      points = PrometheusRemoteWrite.decode(body, dimensions(exchange));
    } catch (PrometheusRemoteWrite.DecodeException e) {
      throw new ApiException(
          HttpResponseStatus.BAD_REQUEST,
          "INVALID_REMOTE_WRITE",
          e.getMessage() + "; nothing of the body was stored");
    }
    write(index, points);
    exchange.send(HttpResponseStatus.NO_CONTENT, "text/plain", new byte[0], Map.of());
  }

  private void importText(Exchange exchange) throws IOException {
    String index = index(exchange);
    Map<String, String> extra = dimensions(exchange);
    Instant now = clock.instant();
    List<MetricPoint> points;
    try {
      points =
          PrometheusText.parse(
              exchange.bodyAsString(),
              extra,
              Math.multiplyExact(now.getEpochSecond(), 1_000_000L) + now.getNano() / 1_000);
    } catch (PrometheusText.ParseException e) {
      throw new ApiException(
          HttpResponseStatus.BAD_REQUEST,
          "INVALID_EXPOSITION",
          e.getMessage() + "; nothing of the body was stored",
          Map.of("line", e.line()));
    }
    write(index, points);
    exchange.json(HttpResponseStatus.OK, Map.of("points", points.size()));
  }

  /** The metric index the request writes: {@code index=}, or the token's default; checked. */
  private String index(Exchange exchange) {
    HecToken token = token(exchange);
    String index = exchange.queryParameter("index");
    if (index == null || index.isBlank()) {
      index = token.defaultIndex();
    }
    if (!ingest.hasIndex(index)) {
      throw new ApiException(
          HttpResponseStatus.BAD_REQUEST,
          "NOT_A_METRIC_INDEX",
          "index '" + index + "' is not a metric index (declare it datatype: metric)");
    }
    if (!token.mayWrite(index)) {
      throw new ApiException(
          HttpResponseStatus.FORBIDDEN,
          "INDEX_NOT_WRITABLE",
          "token '" + token.name() + "' may not write to index '" + index + "'");
    }
    return index;
  }

  /** The dimensions the query parameters add to every point that lacks them. */
  private static Map<String, String> dimensions(Exchange exchange) {
    Map<String, String> extra = new LinkedHashMap<>();
    for (String name : List.of("host", "source", "sourcetype", "job", "instance", "region")) {
      String value = exchange.queryParameter(name);
      if (value != null && !value.isBlank()) {
        extra.put(name, value);
      }
    }
    return extra;
  }

  /** Stores the points durably (a 503 when the store fails: nothing was acknowledged). */
  private void write(String index, List<MetricPoint> points) {
    List<IndexedPoint> indexed = new ArrayList<>(points.size());
    for (MetricPoint point : points) {
      indexed.add(new IndexedPoint(index, point));
    }
    try {
      ingest.write(indexed);
    } catch (IOException e) {
      throw new ApiException(
          HttpResponseStatus.SERVICE_UNAVAILABLE,
          "STORAGE_FAILED",
          "storage write failed: " + e.getMessage() + " (is the disk full?); retry later");
    }
  }

  private HecToken token(Exchange exchange) {
    String authorization = exchange.header(HttpHeaderNames.AUTHORIZATION);
    ApiException denied =
        new ApiException(
            HttpResponseStatus.UNAUTHORIZED,
            "HEC_TOKEN_REQUIRED",
            "send a HEC token: Authorization: Splunk <token>");
    if (authorization == null || authorization.isBlank()) {
      throw denied;
    }
    return Authenticator.presentedHecToken(authorization)
        .flatMap(authenticator::hecToken)
        .orElseThrow(() -> denied);
  }
}
