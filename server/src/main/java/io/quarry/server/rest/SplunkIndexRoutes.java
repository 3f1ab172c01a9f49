package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.codecs.store.EventStore;
import io.quarry.server.auth.Access;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.http.ApiException;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Splunk's {@code data/indexes} (what {@code service.indexes} of its SDKs lists), under {@code
 * /services} and {@code /servicesNS/{owner}/{app}}: {@code GET} the event indexes the caller may
 * search, or one by name, with Splunk's {@code totalEventCount}, {@code currentDBSizeMB}, {@code
 * minTime}/{@code maxTime}, {@code datatype}, {@code isReady} and the retention ({@code
 * maxTotalDataSizeMB}, {@code frozenTimePeriodInSecs}: 0 when the index keeps everything), its
 * totals the same as {@code GET /api/v1/indexes}' ({@link IndexTotals}). Indexes are declared in
 * the configuration; {@code POST} (create) answers 400 saying so rather than pretending.
 */
public final class SplunkIndexRoutes {
  private static final String PATH = "data/indexes";

  private final Authenticator authenticator;
  private final EventStore store;

  public SplunkIndexRoutes(Authenticator authenticator, EventStore store) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.store = requireNonNull(store, "store is null");
  }

  public void register(Router router) {
    for (String prefix : SplunkEntities.paths(PATH)) {
      router.add(HttpMethod.GET, prefix, SplunkErrors.splunk(this::list));
      router.add(HttpMethod.GET, prefix + "/{name}", SplunkErrors.splunk(this::show));
      router.add(HttpMethod.POST, prefix, SplunkErrors.splunk(this::create));
    }
  }

  private Access access(Exchange exchange) {
    return authenticator.requireAccess(
        exchange.header(HttpHeaderNames.AUTHORIZATION), "Index statistics");
  }

  private void list(Exchange exchange) throws IOException {
    Access access = access(exchange);
    List<SplunkEntities.Entity> indexes = new ArrayList<>();
    for (String name : store.indexNames()) {
      if (access.mayRead(name)) {
        indexes.add(entity(name));
      }
    }
    SplunkEntities.answer(exchange, HttpResponseStatus.OK, PATH, indexes);
  }

  private void show(Exchange exchange) throws IOException {
    Access access = access(exchange);
    String name = exchange.pathParameter("name");
    if (!store.hasIndex(name) || !access.mayRead(name)) {
      throw new ApiException(
          HttpResponseStatus.NOT_FOUND,
          "INDEX_NOT_FOUND",
          "Could not find object id=" + name + " (no index of that name you may search)");
    }
    SplunkEntities.answer(exchange, HttpResponseStatus.OK, PATH, List.of(entity(name)));
  }

  private void create(Exchange exchange) {
    access(exchange);
    throw ApiException.badRequest(
        "UNSUPPORTED_OPERATION",
        "Indexes are declared in the configuration (indexes: [...], storage.indexes.<name>) and"
            + " opened at start; they cannot be created over REST");
  }

  private SplunkEntities.Entity entity(String name) throws IOException {
    io.quarry.codecs.store.IndexStore index = store.index(name);
    IndexTotals totals = IndexTotals.of(index.buckets());
    io.quarry.codecs.store.IndexOptions options = index.options();
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("totalEventCount", totals.events());
    content.put("currentDBSizeMB", totals.bytes() / (1024 * 1024));
    content.put("minTime", totals.events() == 0 ? "" : iso(totals.earliestMicros()));
    content.put("maxTime", totals.events() == 0 ? "" : iso(totals.latestMicros()));
    content.put("datatype", "event");
    content.put("disabled", false);
    content.put("isInternal", name.startsWith("_"));
    content.put("isReady", true);
    content.put("numBuckets", totals.buckets());
    // retention (storage.indexes.<name>.maxTotalBytes, maxAgeDays); 0 where none is set: the index
    // keeps everything (Splunk has no such value: its defaults are 500,000 MB and six years)
    content.put(
        "maxTotalDataSizeMB",
        // rounded up: a limit under 1 MiB is not 0, which says the index keeps everything
        options.maxTotalBytes().map(b -> (b + (1024 * 1024) - 1) / (1024 * 1024)).orElse(0L));
    content.put(
        "frozenTimePeriodInSecs", options.maxAge().map(java.time.Duration::toSeconds).orElse(0L));
    return new SplunkEntities.Entity(name, "nobody", Instant.EPOCH, "global", content);
  }

  private static String iso(long micros) {
    return Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1000).toString();
  }
}
