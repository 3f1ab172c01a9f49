package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.codecs.store.BucketInfo;
import io.quarry.codecs.store.EventStore;
import io.quarry.codecs.store.IndexStore;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/indexes}: per index its buckets, events, time range, bytes on disk (also by
 * what they hold: journal, terms, postings, doc values, points), its segments, the layouts of its
 * buckets ({@code blocks 3}) and the journal compression its segments actually hold ({@code
 * journal}: segments and bytes per codec, level, fast or compact, format version — each segment
 * records its own, whatever the index's setting says now); the same per bucket; what {@code quarry
 * indexes} prints; its deferred compaction ({@code compaction}: bytes waiting, whether one runs,
 * whether one is {@code due} without more events, compactions done). Metric indexes are listed
 * apart, under {@code metricIndexes}: points (and those still in the hot bucket), time range, warm
 * buckets, series, chunks, bytes on disk and per point.
 */
public final class IndexRoutes {
  private final Authenticator authenticator;
  private final EventStore store;
  private final io.quarry.codecs.metricstore.MetricStore metricStore;

  public IndexRoutes(Authenticator authenticator, EventStore store) {
    this(authenticator, store, io.quarry.codecs.metricstore.MetricStore.empty());
  }

  /** As above, listing the metric indexes of {@code metricStore} under {@code metricIndexes}. */
  public IndexRoutes(
      Authenticator authenticator,
      EventStore store,
      io.quarry.codecs.metricstore.MetricStore metricStore) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.store = requireNonNull(store, "store is null");
    this.metricStore = requireNonNull(metricStore, "metricStore is null");
  }

  public void register(Router router) {
    router.add(HttpMethod.GET, "/api/v1/indexes", this::list);
  }

  private void list(Exchange exchange) throws IOException {
    io.quarry.server.auth.Access access =
        authenticator.requireAccess(
            exchange.header(HttpHeaderNames.AUTHORIZATION), "Index statistics");
    List<Map<String, Object>> indexes = new ArrayList<>();
    for (String name : store.indexNames()) {
      if (!access.mayRead(name)) {
        continue; // a user sees only the indexes their roles let them search
      }
      IndexStore index = store.index(name);
      List<BucketInfo> buckets = index.buckets();
      IndexTotals totals = IndexTotals.of(buckets);
      List<Map<String, Object>> bucketList = new ArrayList<>();
      for (BucketInfo bucket : buckets) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("id", bucket.id());
        entry.put("state", bucket.state());
        entry.put("events", bucket.events());
        entry.put("earliestMicros", bucket.minTime());
        entry.put("latestMicros", bucket.maxTime());
        entry.put("bytes", bucket.bytes());
        entry.put("format", bucket.format().configName());
        entry.put("layout", bucket.layout());
        entry.put("layoutVersion", bucket.layoutVersion());
        entry.put("segments", bucket.segments());
        entry.put("documents", bucket.documents());
        entry.put("journal", bucket.journals()); // JournalKind records, as Jackson writes them
        bucketList.add(entry);
      }
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("name", name);
      entry.put("events", totals.events());
      entry.put("earliestMicros", totals.earliest());
      entry.put("latestMicros", totals.latest());
      entry.put("bytesOnDisk", totals.bytes());
      entry.put("journalRawBytes", totals.journalRawBytes());
      entry.put("journalBytes", totals.journalBytes());
      entry.put(
          "diskToRawRatio",
          totals.journalRawBytes() == 0
              ? null
              : (double) totals.bytes() / totals.journalRawBytes());
      entry.put("bytesByKind", index.bytesByKind());
      entry.put("segments", totals.segments());
      entry.put("layouts", totals.layouts());
      entry.put("journal", totals.journal());
      entry.put("quarantinedBuckets", index.quarantinedBuckets());
      io.quarry.codecs.store.CompactionStatus compaction = index.compaction();
      entry.put(
          "compaction",
          Map.of(
              "pendingBytes", compaction.pendingBytes(),
              "running", compaction.running(),
              "due", compaction.due(),
              "compactions", compaction.compactions(),
              "compactedBytes", compaction.compactedBytes(),
              "waitingSegments", compaction.waitingSegments()));
      if (index.walFailed()) {
        entry.put("walStopped", true); // an fsync failed: no events taken until a restart
      }
      if (!index.walDamage().isEmpty()) {
        entry.put(
            "damagedWalFiles",
            index.walDamage().stream()
                .map(
                    damage ->
                        Map.of(
                            "file", damage.file().toString(),
                            "offset", damage.offset(),
                            "unreadBytes", damage.unreadBytes(),
                            "problem", damage.problem(),
                            "lastReplayedSeq", damage.lastGoodSeq()))
                .toList());
      }
      entry.put("buckets", bucketList);
      indexes.add(entry);
    }
    List<Map<String, Object>> metricIndexes = new ArrayList<>();
    for (String name : metricStore.indexNames()) {
      if (!access.mayRead(name)) {
        continue;
      }
      io.quarry.codecs.metricstore.MetricIndexInfo info = metricStore.index(name).info();
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("name", name);
      entry.put("datatype", "metric");
      entry.put("points", info.points());
      entry.put("hotPoints", info.hotPoints());
      entry.put("earliestMicros", info.points() == 0 ? null : info.minTime());
      entry.put("latestMicros", info.points() == 0 ? null : info.maxTime());
      entry.put("warmBuckets", info.warmBuckets());
      entry.put("warmSeries", info.series()); // summed over buckets: a series in two counts twice
      entry.put("warmChunks", info.chunks());
      entry.put("bytesOnDisk", info.bytesOnDisk());
      long warmPoints = info.points() - info.hotPoints();
      entry.put("bytesPerPoint", warmPoints == 0 ? null : info.bytesOnDisk() / (double) warmPoints);
      entry.put("bytesByKind", info.bytesByKind());
      List<String> damage = metricStore.index(name).damage();
      if (!damage.isEmpty()) {
        entry.put("quarantinedBuckets", damage);
      }
      metricIndexes.add(entry);
    }
    exchange.json(
        HttpResponseStatus.OK, Map.of("indexes", indexes, "metricIndexes", metricIndexes));
  }
}
