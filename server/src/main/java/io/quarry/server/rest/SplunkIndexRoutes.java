package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.codecs.metricstore.MetricStore;
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
 * /services} and {@code /servicesNS/{owner}/{app}}: {@code GET} the indexes the caller may search —
 * event ones, metric ones with {@code datatype=metric}, both with {@code datatype=all}, as Splunk's
 * — or one by name, with Splunk's {@code totalEventCount}, {@code currentDBSizeMB}, {@code
 * minTime}/{@code maxTime}, {@code datatype}, {@code isReady} and the retention ({@code
 * maxTotalDataSizeMB}, {@code frozenTimePeriodInSecs}: 0 when the index keeps everything; a metric
 * index's from its {@code maxAgeDays}, its size unbounded), its totals the same as {@code GET
 * /api/v1/indexes}' ({@link IndexTotals}). Indexes are declared in the configuration; {@code POST}
 * (create) answers 400 saying so rather than pretending.
 */
public final class SplunkIndexRoutes {
  private static final String PATH = "data/indexes";

  private final Authenticator authenticator;
  private final EventStore store;
  private final MetricStore metricStore;

  public SplunkIndexRoutes(Authenticator authenticator, EventStore store) {
    this(authenticator, store, MetricStore.empty());
  }

  /** As above, listing the metric indexes of {@code metricStore} too ({@code datatype: metric}). */
  public SplunkIndexRoutes(Authenticator authenticator, EventStore store, MetricStore metricStore) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.store = requireNonNull(store, "store is null");
    this.metricStore = requireNonNull(metricStore, "metricStore is null");
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
    // Splunk's datatype parameter: event indexes unless it asks for metric ones or all
    String datatype = exchange.parameter("datatype");
    datatype = datatype == null || datatype.isEmpty() ? "event" : datatype;
    if (!datatype.equals("event") && !datatype.equals("metric") && !datatype.equals("all")) {
      throw ApiException.badRequest(
          "INVALID_PARAMETER", "datatype must be event, metric or all, not '" + datatype + "'");
    }
    List<SplunkEntities.Entity> indexes = new ArrayList<>();
    if (!datatype.equals("metric")) {
      for (String name : store.indexNames()) {
        if (access.mayRead(name)) {
          indexes.add(entity(name));
        }
      }
    }
    if (!datatype.equals("event")) {
      for (String name : metricStore.indexNames()) {
        if (access.mayRead(name)) {
          indexes.add(metricEntity(name));
        }
      }
    }
    SplunkEntities.answer(exchange, HttpResponseStatus.OK, PATH, indexes);
  }

  private void show(Exchange exchange) throws IOException {
    Access access = access(exchange);
    String name = exchange.pathParameter("name");
    if (metricStore.hasIndex(name) && access.mayRead(name)) {
      SplunkEntities.answer(exchange, HttpResponseStatus.OK, PATH, List.of(metricEntity(name)));
      return;
    }
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
    common(content, name, "event");
    content.put("numBuckets", totals.buckets());
    // Quarry's own, named as GET /api/v1/indexes names them: the journal before and after
    // compression and the bytes on disk by what they hold
    content.put("journalRawBytes", totals.journalRawBytes());
    content.put("journalBytes", totals.journalBytes());
    content.put("bytesByKind", index.bytesByKind());
    retention(content, options.maxTotalBytes(), options.maxAge());
    return new SplunkEntities.Entity(name, "nobody", Instant.EPOCH, "global", content);
  }

  /** Splunk's fields every index has: its {@code datatype}, and Quarry's indexes all enabled. */
  private static void common(Map<String, Object> content, String name, String datatype) {
    content.put("datatype", datatype);
    content.put("disabled", false);
    content.put("isInternal", name.startsWith("_"));
    content.put("isReady", true);
  }

  /**
   * The retention Splunk's clients read, from {@code storage.indexes.<name>.maxTotalBytes} and
   * {@code maxAgeDays}: 0 where none is set, the index keeping everything (Splunk has no such
   * value: its defaults are 500,000 MB and six years).
   */
  private static void retention(
      Map<String, Object> content,
      java.util.Optional<Long> maxTotalBytes,
      java.util.Optional<java.time.Duration> maxAge) {
    content.put(
        "maxTotalDataSizeMB",
        // rounded up: a limit under 1 MiB is not 0, which says the index keeps everything
        maxTotalBytes.map(b -> (b + (1024 * 1024) - 1) / (1024 * 1024)).orElse(0L));
    content.put("frozenTimePeriodInSecs", maxAge.map(java.time.Duration::toSeconds).orElse(0L));
  }

  /**
   * A metric index as Splunk lists one ({@code datatype: metric}, {@code totalEventCount} its data
   * points, the hot bucket's among them), with Quarry's {@code points}, {@code hotPoints}, {@code
   * bytesByKind} as {@code GET /api/v1/indexes}' {@code metricIndexes} names them, and its
   * retention as an event index's ({@code frozenTimePeriodInSecs} from its {@code maxAgeDays};
   * {@code maxTotalDataSizeMB} 0: a metric index has no bound on its size).
   */
  private SplunkEntities.Entity metricEntity(String name) throws IOException {
    io.quarry.codecs.metricstore.MetricIndexStore index = metricStore.index(name);
    io.quarry.codecs.metricstore.MetricIndexInfo info = index.info();
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("totalEventCount", info.points());
    content.put("currentDBSizeMB", info.bytesOnDisk() / (1024 * 1024));
    content.put("minTime", info.points() == 0 ? "" : iso(info.minTime()));
    content.put("maxTime", info.points() == 0 ? "" : iso(info.maxTime()));
    common(content, name, "metric");
    content.put("numBuckets", info.warmBuckets() + (info.hotPoints() > 0 ? 1 : 0));
    content.put("points", info.points());
    content.put("hotPoints", info.hotPoints());
    content.put("bytesByKind", info.bytesByKind());
    // a metric index is bounded by age alone (maxAgeDays; maxTotalBytes is an event index's)
    retention(content, java.util.Optional.empty(), index.options().maxAge());
    return new SplunkEntities.Entity(name, "nobody", Instant.EPOCH, "global", content);
  }

  private static String iso(long micros) {
    return Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1000).toString();
  }
}
