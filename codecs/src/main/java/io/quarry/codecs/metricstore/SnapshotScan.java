package io.quarry.codecs.metricstore;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.index.CorruptIndexException;

/**
 * One {@link MetricIndexStore#scan} (or {@link MetricIndexStore#cursor}) over the buckets a search
 * took ({@link Source}s, in roll order): what they are, the counts of what was read, and the
 * reading of a group of buckets overlapping in time; {@link MetricCursor} walks them.
 *
 * <p><b>Last write wins, across buckets too.</b> Buckets whose time bounds do not overlap are read
 * one after the other, oldest first, each series streamed from its chunks. Buckets that overlap in
 * time (a point came late, after its stretch of time had rolled) are read together: a series in
 * several of them has its chunks gathered in roll order and, where they overlap, its points merged
 * with the later roll's point winning at the same instant ({@link BucketMerger#inTimeOrder}) — so a
 * search answers the same before and after {@link MetricIndexStore#merge} and a series' points
 * reach the visitor once each, in time order within each group.
 */
final class SnapshotScan {
  /**
   * A bucket as a search took it: a warm one (referenced until the search ends), or the selected
   * series of one in memory (null when it lies outside the range), with its time bounds.
   */
  record Source(WarmBucket warm, List<HotBucket.Selected> selected, long minTime, long maxTime) {}

  /**
   * The buckets a search took, in roll order, each warm one referenced until {@link #release}; the
   * in-memory ones as their selected series with copies of their chunks.
   */
  record Snapshot(List<Source> byRoll, List<WarmBucket> warm, long refused) {
    /**
     * Completes a snapshot from what was taken under the store's lock: the referenced warm buckets,
     * the buckets being written (whose series are selected here, under their own lock) and the hot
     * bucket's selected series and bounds.
     */
    static Snapshot of(
        List<WarmBucket> warm,
        List<HotBucket> flushing,
        List<HotBucket.Selected> hotSelected,
        long hotMin,
        long hotMax,
        SeriesSelector selector,
        long from,
        long to,
        long[] refused) {
      List<WarmBucket> byFirstRoll = new ArrayList<>(warm);
      byFirstRoll.sort(Comparator.comparingLong((WarmBucket b) -> b.firstRoll));
      List<Source> byRoll = new ArrayList<>();
      for (WarmBucket bucket : byFirstRoll) {
        byRoll.add(new Source(bucket, null, bucket.minTime, bucket.maxTime));
      }
      for (HotBucket bucket : flushing) {
        // (select takes the bucket's stripes: a roll writing it out holds them too)
        List<HotBucket.Selected> selected =
            bucket.minTime() >= to || bucket.maxTime() < from
                ? null
                : bucket.select(selector, from, to, refused);
        byRoll.add(new Source(null, selected, bucket.minTime(), bucket.maxTime()));
      }
      byRoll.add(new Source(null, hotSelected, hotMin, hotMax));
      return new Snapshot(byRoll, byFirstRoll, refused[0]);
    }

    /**
     * Gives the keys of series {@code selector} accepts with points in {@code [from, to)}, once per
     * bucket that holds them.
     */
    void keys(
        SeriesSelector selector, long from, long to, java.util.function.Consumer<SeriesKey> keys) {
      for (Source source : byRoll) {
        if (source.warm() != null) {
          if (source.warm().overlaps(from, to)) {
            source.warm().keys(selector, from, to, keys);
          }
        } else if (source.selected() != null) {
          source.selected().forEach(s -> keys.accept(s.key()));
        }
      }
    }

    void release() throws IOException {
      IOException failure = null;
      for (WarmBucket bucket : warm) {
        try {
          bucket.release();
        } catch (IOException e) {
          failure = e;
        }
      }
      if (failure != null) {
        throw failure;
      }
    }
  }

  private final List<Source> byRoll;
  private final int chunkPoints;
  private final MetricIndexStore damage; // sets buckets found damaged aside
  private final long[] counts = new long[5];
  private final List<String> warnings = new ArrayList<>();
  private final java.util.concurrent.Executor parallel;
  private final int threads;

  /**
   * @param parallel where a warm bucket's series may be read in parallel (null: in the calling
   *     thread only), by up to {@code threads} threads
   */
  SnapshotScan(
      List<Source> byRoll,
      long refused,
      int chunkPoints,
      MetricIndexStore damage,
      java.util.concurrent.Executor parallel,
      int threads) {
    this.parallel = parallel;
    this.threads = threads;
    this.byRoll = byRoll;
    this.chunkPoints = chunkPoints;
    this.damage = damage;
    counts[1] = refused;
  }

  /** Visits every selected series' points in range ({@link MetricCursor}, whole buckets a step). */
  MetricScanStats run(SeriesSelector selector, long from, long to, MetricScanVisitor visitor)
      throws IOException {
    MetricCursor cursor = new MetricCursor(this, null, selector, from, to, true);
    while (cursor.advance(visitor)) {
      // the next series (a warm bucket's: all of them, in parallel slices when the visitor forks)
    }
    return cursor.stats();
  }

  /** The buckets taken, in roll order. */
  List<Source> byRoll() {
    return byRoll;
  }

  /** What was read and skipped so far, by the counters {@link WarmBucket#scan} adds to. */
  long[] counts() {
    return counts;
  }

  /**
   * Reads a whole warm bucket of a group, less the series {@code merged} names ({@link
   * MetricCursor}'s whole-bucket steps): in parallel slices when the visitor forks.
   */
  void scanWarm(
      WarmBucket bucket,
      SeriesSelector selector,
      long from,
      long to,
      MetricScanVisitor visitor,
      Set<SeriesKey> merged)
      throws IOException {
    bucket.scan(selector, from, to, visitor, counts, merged, parallel, threads);
  }

  /** The scan's figures: {@code buckets} read and {@code skipped}, and what the counters hold. */
  MetricScanStats stats(long buckets, long skipped) {
    return new MetricScanStats(
        buckets, skipped, counts[0], counts[1], counts[2], counts[3], counts[4], warnings);
  }

  /**
   * The series in more than one bucket of {@code group} whose time spans there overlap (from the
   * buckets' chunk bounds: nothing is read).
   */
  Set<SeriesKey> overlapping(List<Integer> group, SeriesSelector selector, long from, long to) {
    Map<SeriesKey, List<long[]>> spans = new HashMap<>();
    for (int index : group) {
      Source source = byRoll.get(index);
      if (source.warm() != null) {
        source
            .warm()
            .spans(
                selector,
                from,
                to,
                (key, span) -> spans.computeIfAbsent(key, k -> new ArrayList<>()).add(span));
      } else {
        for (HotBucket.Selected series : source.selected()) {
          if (!series.chunks().isEmpty()) {
            spans
                .computeIfAbsent(series.key(), k -> new ArrayList<>())
                .add(
                    new long[] {
                      series.chunks().getFirst().minTime(), series.chunks().getLast().maxTime()
                    });
          }
        }
      }
    }
    Set<SeriesKey> overlapping = new HashSet<>();
    for (Map.Entry<SeriesKey, List<long[]>> entry : spans.entrySet()) {
      List<long[]> list = entry.getValue();
      if (list.size() < 2) {
        continue;
      }
      list.sort(Comparator.comparingLong(span -> span[0]));
      long reached = list.getFirst()[1];
      for (int i = 1; i < list.size(); i++) {
        if (list.get(i)[0] <= reached) {
          overlapping.add(entry.getKey());
          break;
        }
        reached = Math.max(reached, list.get(i)[1]);
      }
    }
    return overlapping;
  }

  /** The series of {@code only} from every bucket of {@code group}, merged into time order. */
  List<HotBucket.Selected> gather(
      List<Integer> group, SeriesSelector selector, long from, long to, Set<SeriesKey> only)
      throws IOException {
    Map<SeriesKey, List<Chunk>> bySeries = new LinkedHashMap<>();
    for (int index : group) {
      Source source = byRoll.get(index);
      List<HotBucket.Selected> selected = source.selected();
      if (source.warm() != null) {
        try {
          selected = source.warm().select(selector, from, to, only, counts);
        } catch (CorruptIndexException e) {
          damaged(source.warm(), e);
          continue;
        } catch (java.nio.file.NoSuchFileException gone) {
          movedAside(source.warm(), gone);
          continue;
        }
      }
      for (HotBucket.Selected series : selected) {
        if (only.contains(series.key())) {
          bySeries.computeIfAbsent(series.key(), k -> new ArrayList<>()).addAll(series.chunks());
        }
      }
    }
    List<HotBucket.Selected> merged = new ArrayList<>(bySeries.size());
    for (Map.Entry<SeriesKey, List<Chunk>> entry : bySeries.entrySet()) {
      merged.add(
          new HotBucket.Selected(
              entry.getKey(), BucketMerger.inTimeOrder(entry.getValue(), chunkPoints)));
    }
    return merged;
  }

  /** A chunk file gone: another search quarantined its bucket, or the disk lost it (thrown). */
  void movedAside(WarmBucket bucket, java.nio.file.NoSuchFileException gone)
      throws java.nio.file.NoSuchFileException {
    if (damage.live(bucket)) {
      throw gone;
    }
  }

  void damaged(WarmBucket bucket, CorruptIndexException e) throws IOException {
    // a chunk file or chunk failing its checksum: the bucket goes aside, the search goes on
    // (what it read of the bucket before the damage stays counted)
    String message = damage.quarantineLive(bucket, e);
    if (message != null) {
      warnings.add(message);
    }
  }

  static void scanSelected(
      List<HotBucket.Selected> selected,
      long from,
      long to,
      MetricScanVisitor visitor,
      long[] counts)
      throws IOException {
    ChunkDecoder decoder = new ChunkDecoder(from, to, counts);
    for (HotBucket.Selected series : selected) {
      if (visitor.stopped()) {
        return;
      }
      MetricScanVisitor.Points sink = visitor.series(series.key());
      if (sink == null) {
        continue;
      }
      counts[0]++;
      for (Chunk chunk : series.chunks()) {
        readChunk(chunk, sink, decoder);
      }
    }
  }

  /** A chunk held in memory: its points in the decoder's range into {@code sink}. */
  static void readChunk(Chunk chunk, MetricScanVisitor.Points sink, ChunkDecoder decoder)
      throws IOException {
    if (decoder.wanted(chunk.minTime(), chunk.maxTime(), chunk.count(), sink)) {
      decoder.decode(chunk.bytes(), 0, chunk.bytes().length, sink);
    }
  }
}
