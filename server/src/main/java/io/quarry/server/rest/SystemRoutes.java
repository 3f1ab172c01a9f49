package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.codecs.store.EventStore;
import io.quarry.server.Version;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import io.quarry.server.metrics.ServerMetrics;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * {@code /health}, {@code /metrics} and {@code /} (server info, or for a browser a redirect to the
 * search page, {@link UiRoutes}); no authentication.
 */
public final class SystemRoutes {
  private final EventStore store;
  private final ServerMetrics metrics;
  private final BooleanSupplier ready;

  public SystemRoutes(EventStore store, ServerMetrics metrics, BooleanSupplier ready) {
    this.store = requireNonNull(store, "store is null");
    this.metrics = requireNonNull(metrics, "metrics is null");
    this.ready = requireNonNull(ready, "ready is null");
  }

  public void register(Router router) {
    router.add(HttpMethod.GET, "/health", this::health);
    router.add(HttpMethod.GET, "/metrics", this::metrics);
    router.add(HttpMethod.GET, "/", this::info);
    router.add(HttpMethod.GET, OPENAPI_PATH, this::openApi);
  }

  /** Where the native API's OpenAPI 3 document is served. */
  public static final String OPENAPI_PATH = "/api/v1/openapi.json";

  /** The checked-in OpenAPI document ({@code openapi.json} beside this class). */
  public static byte[] openApiDocument() {
    try (java.io.InputStream in = SystemRoutes.class.getResourceAsStream("openapi.json")) {
      if (in == null) {
        throw new IllegalStateException("openapi.json is missing from the class path");
      }
      return in.readAllBytes();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private void openApi(Exchange exchange) {
    exchange.send(HttpResponseStatus.OK, "application/json", openApiDocument(), Map.of());
  }

  private void health(Exchange exchange) {
    boolean isReady = ready.getAsBoolean();
    java.util.List<String> stopped =
        isReady
            ? store.indexNames().stream().filter(i -> store.index(i).walFailed()).toList()
            : java.util.List.of();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", !isReady ? "starting" : stopped.isEmpty() ? "ok" : "degraded");
    body.put("live", true);
    body.put("ready", isReady && stopped.isEmpty());
    body.put("version", Version.current());
    if (!stopped.isEmpty()) {
      // no names: /health answers anyone, and index names are for those who may read them
      body.put(
          "reason",
          "the write-ahead log of "
              + stopped.size()
              + (stopped.size() == 1 ? " index" : " indexes")
              + " stopped accepting events after an fsync failed (GET /api/v1/indexes names"
              + " them); restart the server");
    }
    exchange.json(
        isReady && stopped.isEmpty()
            ? HttpResponseStatus.OK
            : HttpResponseStatus.SERVICE_UNAVAILABLE,
        body);
  }

  private void metrics(Exchange exchange) {
    exchange.text(
        HttpResponseStatus.OK, "text/plain; version=0.0.4; charset=utf-8", metrics.scrape());
  }

  private void info(Exchange exchange) {
    if (UiRoutes.wantsPage(exchange)) {
      // a browser: the search page (programs asking for JSON still get the server info)
      exchange.send(
          HttpResponseStatus.FOUND,
          "text/plain; charset=utf-8",
          new byte[0],
          Map.of("Location", UiRoutes.PATH + "/", "Cache-Control", "no-cache"));
      return;
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", "quarry");
    body.put("version", Version.current());
    body.put("indexes", store.indexNames());
    body.put("keyValueScan", io.quarry.server.sourcetype.KeyPlaces.byteScan());
    body.put("termClassifier", io.quarry.codecs.tokens.TermSet.classifier());
    exchange.json(HttpResponseStatus.OK, body);
  }
}
