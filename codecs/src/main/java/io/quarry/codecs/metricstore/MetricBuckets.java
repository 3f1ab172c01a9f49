package io.quarry.codecs.metricstore;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.apache.lucene.util.IOUtils;

/**
 * A metric index's buckets and the lock they change under: the hot bucket points are appended to,
 * the hot buckets being written out (flushing), and the warm buckets. A roll moves a bucket from
 * hot to flushing to warm, and a merge swaps its sources for its result, each under the lock, so a
 * {@link #snapshot} sees each point's bucket exactly once. The log's appends happen under the same
 * lock, so the log's order is the hot bucket's.
 */
final class MetricBuckets {
  private final Object lock = new Object();
  private final CopyOnWriteArrayList<WarmBucket> warm = new CopyOnWriteArrayList<>();
  private final CopyOnWriteArrayList<HotBucket> flushing = new CopyOnWriteArrayList<>();
  private HotBucket hot;

  MetricBuckets(List<WarmBucket> opened, HotBucket replayed) {
    warm.addAll(opened);
    this.hot = replayed;
  }

  /**
   * Appends the batch to the log and resolves its series in the hot bucket under the lock, then
   * encodes its chunks outside it (in log order, through the hot bucket's chain).
   *
   * @return the log position to wait for
   */
  long append(MetricLog log, MetricLog.Encoded record, MetricBatch points) throws IOException {
    long position;
    HotBucket target;
    HotSeries[] series;
    synchronized (lock) {
      position = log.append(record);
      target = hot;
      series = target.resolve(points);
      target.startChain(); // in log order: the batches after this one follow it through
    }
    target.addChained(points, series); // the chunk encoding, outside the index's lock
    return position;
  }

  /**
   * Whether the hot bucket holds {@code maxPoints} points or is older than {@code maxAgeMillis}.
   */
  boolean rollDue(long maxPoints, long maxAgeMillis, long nowMillis) {
    synchronized (lock) {
      return hot.points() >= maxPoints
          || !hot.isEmpty() && nowMillis - hot.createdMillis() >= maxAgeMillis;
    }
  }

  /** A hot bucket taken out for writing, and the newest log generation it holds. */
  record Frozen(HotBucket bucket, long closedGeneration) {}

  /**
   * Rolls the log and puts a {@code fresh} bucket in the hot bucket's place, the old one among the
   * flushing buckets; null (nothing changed) when the hot bucket is empty.
   */
  Frozen freeze(MetricLog log, Supplier<HotBucket> fresh) throws IOException {
    synchronized (lock) {
      if (hot.isEmpty()) {
        return null;
      }
      long closedGeneration = log.roll();
      HotBucket frozen = hot;
      hot = fresh.get();
      flushing.add(frozen);
      return new Frozen(frozen, closedGeneration);
    }
  }

  /** The frozen bucket, written out, takes its place among the warm buckets. */
  void written(HotBucket frozen, WarmBucket opened) {
    synchronized (lock) {
      warm.add(opened);
      flushing.remove(frozen);
    }
  }

  /** The warm buckets now (a copy). */
  List<WarmBucket> warm() {
    return new ArrayList<>(warm);
  }

  /** Whether the bucket is still a warm one (not moved aside or merged away). */
  boolean live(WarmBucket bucket) {
    return warm.contains(bucket);
  }

  /** Removes a warm bucket; false when it was not one any more. */
  boolean remove(WarmBucket bucket) {
    synchronized (lock) {
      return warm.remove(bucket);
    }
  }

  /**
   * Publishes a merge's temporary directory when all its sources are still warm buckets, else
   * deletes it.
   *
   * @return the published directory, or null when a source was removed meanwhile
   */
  Path publishMerge(List<WarmBucket> sources, Path temporary) throws IOException {
    synchronized (lock) {
      if (!warm.containsAll(sources)) { // one was quarantined by a search meanwhile
        IOUtils.rm(temporary);
        return null;
      }
      return MetricBucketFormat.publish(temporary);
    }
  }

  /** Swaps a merge's sources for its result. */
  void replace(List<WarmBucket> sources, WarmBucket merged) {
    synchronized (lock) {
      warm.removeAll(sources);
      warm.add(merged);
    }
  }

  /** The buckets a query reads, taken together under the lock (each warm one acquired). */
  SnapshotScan.Snapshot snapshot(SeriesSelector selector, long from, long to) {
    List<WarmBucket> warmNow = new ArrayList<>();
    List<HotBucket> flushingNow;
    List<HotBucket.Selected> hotSelected;
    long hotMin;
    long hotMax;
    long[] refused = new long[1];
    synchronized (lock) {
      for (WarmBucket bucket : warm) {
        if (bucket.acquire()) { // always, while it is in warm
          warmNow.add(bucket);
        }
      }
      flushingNow = new ArrayList<>(flushing);
      hotMin = hot.minTime();
      hotMax = hot.maxTime();
      hotSelected =
          hot.isEmpty() || hot.minTime() >= to || hot.maxTime() < from
              ? null
              : hot.select(selector, from, to, refused);
    }
    return SnapshotScan.Snapshot.of(
        warmNow, flushingNow, hotSelected, hotMin, hotMax, selector, from, to, refused);
  }

  /** What the buckets hold, for {@link MetricIndexStore#info}. */
  MetricIndexInfo info(String name, Map<String, Long> bytesByKind) {
    List<WarmBucket> buckets = new ArrayList<>(warm);
    long hotPoints;
    long hotMin = Long.MAX_VALUE;
    long hotMax = Long.MIN_VALUE;
    synchronized (lock) {
      hotPoints = hot.points();
      for (HotBucket bucket : flushing) {
        hotPoints += bucket.points();
      }
      if (!hot.isEmpty()) {
        hotMin = hot.minTime();
        hotMax = hot.maxTime();
      }
    }
    return MetricIndexInfo.of(name, buckets, hotPoints, hotMin, hotMax, bytesByKind);
  }
}
