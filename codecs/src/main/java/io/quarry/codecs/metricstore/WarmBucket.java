package io.quarry.codecs.metricstore;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A rolled, read-only metric bucket ({@link MetricBucketFormat}): the series file is read when the
 * bucket opens, the chunk file memory-mapped when a query first needs a chunk (then kept; each
 * chunk is copied out of the mapping as it is decoded).
 *
 * <p><b>References.</b> The index holds one reference while the bucket is live; each search holds
 * one from its snapshot to its end. A bucket dropped by a merge or by retention is deleted from
 * disk when the last reference goes ({@link #release}), so a search that took it keeps reading it.
 */
final class WarmBucket {
  final long id;
  final Path directory;
  final long minTime;
  final long maxTime;
  final long points;
  final long walGeneration;

  /** The rolls whose points this bucket holds ({@link MetricBucketFormat}). */
  final long firstRoll;

  final long lastRoll;
  private final java.util.concurrent.atomic.AtomicInteger references =
      new java.util.concurrent.atomic.AtomicInteger(1);
  private volatile boolean deleteWhenReleased;
  private final SeriesKey[] keys;
  private final WarmChunkIndex chunkIndex;
  private final Map<String, int[]> postings;
  private final long bytesOnDisk;
  private volatile java.nio.ByteBuffer chunks; // the mapped chunk file, read-only

  WarmBucket( // by SeriesFileReader
      long id,
      Path directory,
      long minTime,
      long maxTime,
      long points,
      long walGeneration,
      long firstRoll,
      long lastRoll,
      SeriesKey[] keys,
      WarmChunkIndex chunkIndex,
      Map<String, int[]> postings,
      long bytesOnDisk) {
    this.id = id;
    this.directory = directory;
    this.minTime = minTime;
    this.maxTime = maxTime;
    this.points = points;
    this.walGeneration = walGeneration;
    this.firstRoll = firstRoll;
    this.lastRoll = lastRoll;
    this.keys = keys;
    this.chunkIndex = chunkIndex;
    this.postings = postings;
    this.bytesOnDisk = bytesOnDisk;
  }

  /** Opens the bucket in {@code directory}: reads and checks its series file. */
  static WarmBucket open(Path directory) throws IOException {
    return SeriesFileReader.read(directory);
  }

  /** Takes a reference for a search; false when the bucket was already released for good. */
  boolean acquire() {
    while (true) {
      int now = references.get();
      if (now == 0) {
        return false;
      }
      if (references.compareAndSet(now, now + 1)) {
        return true;
      }
    }
  }

  /** Gives a reference back; the last one deletes the bucket's directory if it was dropped. */
  void release() throws IOException {
    if (references.decrementAndGet() == 0 && deleteWhenReleased) {
      org.apache.lucene.util.IOUtils.rm(directory);
    }
  }

  /** Drops the index's own reference: the directory goes once no search holds the bucket. */
  void drop() throws IOException {
    deleteWhenReleased = true;
    release();
  }

  /** True when the rolls of this bucket lie inside {@code other}'s (and they differ). */
  boolean supersededBy(WarmBucket other) {
    return other != this
        && other.firstRoll <= firstRoll
        && lastRoll <= other.lastRoll
        && (other.firstRoll != firstRoll || other.lastRoll != lastRoll || other.id > id);
  }

  SeriesKey key(int series) {
    return keys[series];
  }

  /** Series {@code series}' chunks, checked and copied out of the chunk file, in time order. */
  List<Chunk> chunks(int series) throws IOException {
    return chunkIndex.chunks(chunks(), series);
  }

  /**
   * Reads the whole bucket as {@code quarry fsck} does: the chunk file's checksum, then every
   * chunk's checksum and points, each chunk's count and time bounds against the series file's.
   *
   * @return the points read
   * @throws IOException ({@link org.apache.lucene.index.CorruptIndexException} for damage)
   */
  long verify() throws IOException {
    long read = chunkIndex.verify(MetricBucketFormat.mapChunks(directory), directory);
    if (read != this.points) {
      throw new org.apache.lucene.index.CorruptIndexException(
          read + " points in the chunks, " + this.points + " in the series file",
          directory.toString());
    }
    return read;
  }

  int seriesCount() {
    return keys.length;
  }

  long chunkCount() {
    return chunkIndex.count();
  }

  long bytesOnDisk() {
    return bytesOnDisk;
  }

  boolean overlaps(long from, long to) {
    return points > 0 && minTime < to && maxTime >= from && from < to;
  }

  /** Visits every series {@code selector} accepts that has a chunk overlapping the range. */
  void keys(
      SeriesSelector selector, long from, long to, java.util.function.Consumer<SeriesKey> to1) {
    for (int s : candidates(selector)) {
      if (chunkIndex.hasChunkIn(s, from, to) && selector.test().test(keys[s])) {
        to1.accept(keys[s]);
      }
    }
  }

  /** Scans the selected series' chunks in {@code [from, to)}; adds to {@code counts}. */
  void scan(SeriesSelector selector, long from, long to, MetricScanVisitor visitor, long[] counts)
      throws IOException {
    scan(selector, from, to, visitor, counts, java.util.Set.of(), null, 1);
  }

  /**
   * Scans as {@link #scan(SeriesSelector, long, long, MetricScanVisitor, long[])}, leaving out the
   * series {@code excluded} names (read elsewhere, merged with other buckets'); with an executor, a
   * visitor that {@linkplain MetricScanVisitor#fork forks} and enough series, in up to {@code
   * threads} slices of series read in parallel ({@link SeriesSlices}).
   */
  void scan(
      SeriesSelector selector,
      long from,
      long to,
      MetricScanVisitor visitor,
      long[] counts,
      java.util.Set<SeriesKey> excluded,
      java.util.concurrent.Executor parallel,
      int threads)
      throws IOException {
    java.nio.ByteBuffer data = chunks();
    int[] chosen = chosen(selector, from, to, counts, excluded);
    int n = chosen.length;
    int slices = parallel == null ? 1 : SeriesSlices.count(n, threads);
    if (slices <= 1
        || !SeriesSlices.scan(
            parallel,
            n,
            slices,
            visitor,
            counts,
            (start, end, fork, own) -> scanSeries(data, chosen, start, end, from, to, fork, own))) {
      scanSeries(data, chosen, 0, n, from, to, visitor, counts);
    }
  }

  /**
   * The series {@code selector} accepts with chunks in {@code [from, to)}, less those {@code
   * excluded} names, in the bucket's order; counts those its test refused.
   */
  int[] chosen(
      SeriesSelector selector,
      long from,
      long to,
      long[] counts,
      java.util.Set<SeriesKey> excluded) {
    int[] candidates = candidates(selector);
    int[] chosen = new int[candidates.length];
    int n = 0;
    for (int s : candidates) {
      if (!chunkIndex.hasChunkIn(s, from, to)) {
        continue;
      }
      if (!selector.test().test(keys[s])) {
        counts[1]++;
        continue;
      }
      if (!excluded.isEmpty() && excluded.contains(keys[s])) {
        continue;
      }
      chosen[n++] = s;
    }
    return Arrays.copyOf(chosen, n);
  }

  /** Reads series {@code series[start..end)}' chunks in range into the visitor. */
  void scanSeries(
      java.nio.ByteBuffer data,
      int[] series,
      int start,
      int end,
      long from,
      long to,
      MetricScanVisitor visitor,
      long[] counts)
      throws IOException {
    ChunkDecoder decoder = new ChunkDecoder(from, to, counts);
    for (int i = start; i < end; i++) {
      if (visitor.stopped()) {
        return;
      }
      int s = series[i];
      MetricScanVisitor.Points sink = visitor.series(keys[s]);
      if (sink == null) {
        continue;
      }
      counts[0]++;
      for (int c = chunkIndex.first(s); c < chunkIndex.first(s + 1); c++) {
        chunkIndex.read(data, c, sink, decoder);
      }
    }
  }

  /** Series {@code s}'s chunks are numbers {@code [firstChunk(s), firstChunk(s + 1))}. */
  int firstChunk(int s) {
    return chunkIndex.first(s);
  }

  /** Chunk {@code c}'s points in the decoder's range into {@code sink} ({@link ChunkDecoder}). */
  void readChunk(
      java.nio.ByteBuffer data, int c, MetricScanVisitor.Points sink, ChunkDecoder decoder)
      throws IOException {
    chunkIndex.read(data, c, sink, decoder);
  }

  /**
   * Gives the time spans of the series {@code selector} accepts with chunks in {@code [from, to)}
   * (from their chunks' bounds: nothing is read).
   */
  void spans(
      SeriesSelector selector,
      long from,
      long to,
      java.util.function.BiConsumer<SeriesKey, long[]> to1) {
    for (int s : candidates(selector)) {
      if (chunkIndex.hasChunkIn(s, from, to) && selector.test().test(keys[s])) {
        to1.accept(keys[s], chunkIndex.span(s));
      }
    }
  }

  /**
   * The series of {@code only} that {@code selector} accepts with chunks in {@code [from, to)},
   * with copies of those chunks (each checked): for series written again in an overlapping bucket,
   * whose points are merged across the buckets.
   */
  List<HotBucket.Selected> select(
      SeriesSelector selector, long from, long to, java.util.Set<SeriesKey> only, long[] counts)
      throws IOException {
    java.nio.ByteBuffer data = chunks();
    List<HotBucket.Selected> selected = new ArrayList<>();
    for (int s : candidates(selector)) {
      if (!chunkIndex.hasChunkIn(s, from, to) || !only.contains(keys[s])) {
        continue;
      }
      if (!selector.test().test(keys[s])) {
        continue; // counted by the scan of the bucket's other series
      }
      selected.add(new HotBucket.Selected(keys[s], chunkIndex.chunksIn(data, s, from, to, counts)));
    }
    return selected;
  }

  /** The chunk file, mapped on first use. */
  java.nio.ByteBuffer chunks() throws IOException {
    java.nio.ByteBuffer data = chunks;
    if (data == null) {
      synchronized (this) {
        data = chunks;
        if (data == null) {
          data = MetricBucketFormat.mapChunks(directory);
          chunks = data;
        }
      }
    }
    return data;
  }

  private int[] candidates(SeriesSelector selector) {
    if (selector.requiredTerms().isEmpty()) {
      int[] all = new int[keys.length];
      Arrays.setAll(all, i -> i);
      return all;
    }
    List<int[]> lists = new ArrayList<>();
    for (String term : selector.requiredTerms()) {
      int[] ids = postings.get(term);
      if (ids == null) {
        return new int[0];
      }
      lists.add(ids);
    }
    return Postings.intersect(lists);
  }
}
