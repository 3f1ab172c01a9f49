package io.quarry.codecs.metricstore;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Merges warm buckets adjacent in roll order into one ({@link MetricIndexStore#merge}).
 *
 * <p><b>Contents.</b> The series dictionaries are unioned (a series' id is its order of first
 * appearance, sources taken in roll order). A series whose chunks do not overlap in time across the
 * sources keeps its chunks as they are, in time order (copied, each checked first); one whose
 * chunks overlap — the same series written again later for the same stretch of time — has its
 * points decoded and re-chunked in time order, the point of the later roll winning at the same
 * instant ({@link Rechunk}), as the hot bucket does within itself and a search does across buckets.
 *
 * <p><b>Installing, crash-safe at every step.</b>
 *
 * <ol>
 *   <li>The merged bucket is written to {@code <id>.tmp/} and forced. A crash here leaves the
 *       {@code .tmp}, deleted on open: the sources stay.
 *   <li>It is renamed to {@code <id>/} (the parent forced) — the commit point. Its series file
 *       names the rolls it holds ({@code FirstRoll..LastRoll}, the sources' span), so on open a
 *       source still there — a crash before step 4 — lies inside it and is deleted, unread.
 *   <li>In memory, the merged bucket replaces the sources in one step under the index's lock: a
 *       search takes its buckets under that lock, so it sees the sources or the merged bucket,
 *       never both and never neither.
 *   <li>Each source is dropped: its directory is deleted when the last search holding it is done
 *       ({@link WarmBucket#release}).
 * </ol>
 */
final class BucketMerger {
  /** The steps of a merge, for tests that crash between them. */
  enum Step {
    TEMPORARY_WRITTEN,
    PUBLISHED,
    SOURCE_DROPPED
  }

  /** Called after each step; a test's hook throws to simulate a crash there. */
  interface Hook {
    void after(Step step) throws IOException;
  }

  static final Hook NONE = step -> {};

  private static final java.util.logging.Logger LOG =
      java.util.logging.Logger.getLogger(BucketMerger.class.getName());

  private BucketMerger() {}

  /**
   * What the merge of {@code sources} (in roll order) holds.
   *
   * @throws SourceDamaged naming the source whose chunks failed their checksum
   */
  static MetricBucketFormat.Contents contents(List<WarmBucket> sources, int chunkPoints)
      throws IOException {
    Map<SeriesKey, List<Chunk>> bySeries = new LinkedHashMap<>();
    long walGeneration = 0;
    for (WarmBucket source : sources) {
      walGeneration = Math.max(walGeneration, source.walGeneration);
      try {
        for (int s = 0; s < source.seriesCount(); s++) {
          bySeries.computeIfAbsent(source.key(s), k -> new ArrayList<>()).addAll(source.chunks(s));
        }
      } catch (org.apache.lucene.index.CorruptIndexException e) {
        throw new SourceDamaged(source, e);
      }
    }
    List<MetricBucketFormat.SeriesChunks> series = new ArrayList<>(bySeries.size());
    long points = 0;
    long minTime = Long.MAX_VALUE;
    long maxTime = Long.MIN_VALUE;
    for (Map.Entry<SeriesKey, List<Chunk>> entry : bySeries.entrySet()) {
      List<Chunk> chunks = inTimeOrder(entry.getValue(), chunkPoints);
      for (Chunk chunk : chunks) {
        points += chunk.count();
        minTime = Math.min(minTime, chunk.minTime());
        maxTime = Math.max(maxTime, chunk.maxTime());
      }
      series.add(new MetricBucketFormat.SeriesChunks(entry.getKey(), chunks));
    }
    return new MetricBucketFormat.Contents(
        minTime,
        maxTime,
        points,
        walGeneration,
        sources.getFirst().firstRoll,
        sources.getLast().lastRoll,
        series);
  }

  /**
   * One series' chunks, given in roll order, as disjoint chunks in time order: as they are when
   * they do not overlap, re-chunked (the later-given point winning at equal times) when they do.
   */
  static List<Chunk> inTimeOrder(List<Chunk> inRollOrder, int chunkPoints) throws IOException {
    List<Chunk> sorted = new ArrayList<>(inRollOrder);
    sorted.sort(Comparator.comparingLong(Chunk::minTime));
    boolean overlap = false;
    for (int i = 1; i < sorted.size() && !overlap; i++) {
      overlap = sorted.get(i).minTime() <= sorted.get(i - 1).maxTime();
    }
    if (!overlap) {
      return sorted;
    }
    int total = 0;
    for (Chunk chunk : inRollOrder) {
      total += chunk.count();
    }
    Rechunk points = new Rechunk(total);
    for (Chunk chunk : inRollOrder) {
      points.addAll(chunk);
    }
    return points.chunks(chunkPoints);
  }

  /**
   * The buckets found on open less the sources of merges that a crash left behind (a bucket whose
   * rolls lie inside another's), which are deleted.
   */
  static List<WarmBucket> withoutLeftSources(String index, List<WarmBucket> opened)
      throws IOException {
    List<WarmBucket> live = new ArrayList<>(opened.size());
    for (WarmBucket bucket : opened) {
      WarmBucket merged = null;
      for (WarmBucket other : opened) {
        if (bucket.supersededBy(other)) {
          merged = other;
        }
      }
      if (merged == null) {
        live.add(bucket);
        continue;
      }
      LOG.info(
          "metric index '"
              + index
              + "': bucket "
              + bucket.id
              + " was merged into bucket "
              + merged.id
              + " before a crash; deleting it");
      org.apache.lucene.util.IOUtils.rm(bucket.directory);
    }
    return live;
  }

  /** A source bucket whose chunks failed their checksum while being merged. */
  static final class SourceDamaged extends IOException {
    final transient WarmBucket bucket;

    SourceDamaged(WarmBucket bucket, org.apache.lucene.index.CorruptIndexException cause) {
      super(cause.getMessage(), cause);
      this.bucket = bucket;
    }
  }
}
