package io.quarry.server.metricindex;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.codecs.metricstore.MetricPoint;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.config.QuarryConfig.HecToken;
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
 */
public final class PrometheusImportRoute {
  public static final String PATH = "/api/v1/metrics/import/prometheus";

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
  }

  private void importText(Exchange exchange) throws IOException {
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
    Map<String, String> extra = new LinkedHashMap<>();
    for (String name : List.of("host", "source", "sourcetype", "job", "instance", "region")) {
      String value = exchange.queryParameter(name);
      if (value != null && !value.isBlank()) {
        extra.put(name, value);
      }
    }
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
    exchange.json(HttpResponseStatus.OK, Map.of("points", points.size()));
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
