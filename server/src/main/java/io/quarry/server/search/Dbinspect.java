package io.quarry.server.search;

import io.quarry.codecs.store.BucketInfo;
import io.quarry.codecs.store.EventStore;
import io.quarry.codecs.store.IndexStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code | dbinspect}'s rows: one per bucket of each index, index by index in name order, buckets
 * newest first (as Splunk lists them): {@code bucketId} ({@code <index>~<id>~quarry}), {@code id},
 * {@code index}, {@code state} ({@code hot}, {@code rolling}, {@code warm} or {@code failed}),
 * {@code eventCount}, {@code startEpoch} and {@code endEpoch} (the oldest and newest event, epoch
 * seconds), {@code sizeOnDiskMB}, {@code rawSize} (the journal's bytes before compression), {@code
 * path}, {@code splunk_server} and {@code _time} (the bucket's start). An empty bucket (a new hot
 * one) has no times.
 */
final class Dbinspect {
  private Dbinspect() {}

  /**
   * The rows as pages of {@code pageSize} positions, built column by column: a page's columns are
   * the fields its buckets hold, in the order they first name them, each typed as {@code
   * PageBuilder.toPage} types a field (a handful per index: made once, then cut).
   */
  static java.util.Iterator<io.quarry.plugin.api.data.Page> pages(
      EventStore store, List<String> indexes, int pageSize) {
    List<Map<String, Object>> buckets = buckets(store, indexes);
    List<io.quarry.plugin.api.data.Page> pages = new ArrayList<>();
    for (int start = 0; start < buckets.size(); start += pageSize) {
      pages.add(page(buckets.subList(start, Math.min(buckets.size(), start + pageSize))));
    }
    return pages.iterator();
  }

  private static io.quarry.plugin.api.data.Page page(List<Map<String, Object>> buckets) {
    java.util.Set<String> names = new java.util.LinkedHashSet<>();
    buckets.forEach(bucket -> names.addAll(bucket.keySet()));
    List<List<List<Object>>> columns = new ArrayList<>(names.size());
    for (String name : names) {
      List<List<Object>> cells = new ArrayList<>(buckets.size());
      for (Map<String, Object> bucket : buckets) {
        Object value = bucket.get(name);
        cells.add(value == null ? List.of() : List.of(value));
      }
      columns.add(cells);
    }
    return io.quarry.ql.exec.PageBuilder.toPage(List.copyOf(names), columns, buckets.size());
  }

  /** Each bucket's fields, in the order its row lists them (a bucket without events: no times). */
  private static List<Map<String, Object>> buckets(EventStore store, List<String> indexes) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (String name : indexes.stream().sorted().toList()) {
      IndexStore index = store.index(name);
      List<BucketInfo> buckets;
      try {
        buckets = new ArrayList<>(index.buckets());
      } catch (IOException e) {
        throw new UncheckedIOException("dbinspect: the buckets of index " + name, e);
      }
      buckets.sort((a, b) -> Long.compare(b.id(), a.id()));
      for (BucketInfo bucket : buckets) {
        Map<String, Object> row = new LinkedHashMap<>();
        if (bucket.events() > 0) {
          row.put("_time", Math.floorDiv(bucket.minTime(), 1_000_000L) * 1_000_000L);
        }
        row.put("bucketId", name + "~" + bucket.id() + "~quarry");
        row.put("id", bucket.id());
        row.put("index", name);
        row.put("state", bucket.state());
        row.put("eventCount", bucket.events());
        if (bucket.events() > 0) {
          row.put("startEpoch", Math.floorDiv(bucket.minTime(), 1_000_000L));
          row.put("endEpoch", Math.floorDiv(bucket.maxTime(), 1_000_000L));
        }
        row.put("sizeOnDiskMB", bucket.bytes() / (1024d * 1024d));
        row.put("rawSize", bucket.journalRawBytes());
        row.put("path", index.bucketPath(bucket.id()).toString());
        row.put("splunk_server", "quarry");
        rows.add(row);
      }
    }
    return rows;
  }
}
