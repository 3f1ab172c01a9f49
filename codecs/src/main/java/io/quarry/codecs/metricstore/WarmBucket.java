package io.quarry.codecs.metricstore;

import io.quarry.codecs.metric.MetricChunkReader;
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
  private final int[] firstChunk; // series i's chunks are [firstChunk[i], firstChunk[i + 1])
  private final int[] chunkOffset;
  private final int[] chunkLength;
  private final int[] chunkCount;
  private final long[] chunkMin;
  private final long[] chunkMax;
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
      int[] firstChunk,
      int[] chunkOffset,
      int[] chunkLength,
      int[] chunkCount,
      long[] chunkMin,
      long[] chunkMax,
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
    this.firstChunk = firstChunk;
    this.chunkOffset = chunkOffset;
    this.chunkLength = chunkLength;
    this.chunkCount = chunkCount;
    this.chunkMin = chunkMin;
    this.chunkMax = chunkMax;
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
    java.nio.ByteBuffer data = chunks();
    List<Chunk> list = new ArrayList<>(firstChunk[series + 1] - firstChunk[series]);
    MetricChunkReader reader = new MetricChunkReader();
    for (int c = firstChunk[series]; c < firstChunk[series + 1]; c++) {
      byte[] bytes = copy(data, c);
      reader.reset(bytes, 0, bytes.length); // its checksum, before it is kept
      list.add(new Chunk(bytes, chunkMin[c], chunkMax[c], chunkCount[c]));
    }
    return list;
  }

  /**
   * Reads the whole bucket as {@code quarry fsck} does: the chunk file's checksum, then every
   * chunk's checksum and points, each chunk's count and time bounds against the series file's.
   *
   * @return the points read
   * @throws IOException ({@link org.apache.lucene.index.CorruptIndexException} for damage)
   */
  long verify() throws IOException {
    java.nio.ByteBuffer data = MetricBucketFormat.mapChunks(directory);
    MetricChunkReader reader = new MetricChunkReader();
    io.quarry.codecs.metric.MetricPointIterator points =
        new io.quarry.codecs.metric.MetricPointIterator();
    long read = 0;
    for (int c = 0; c < chunkOffset.length; c++) {
      byte[] bytes = copy(data, c);
      reader.reset(bytes, 0, bytes.length);
      if (reader.count() != chunkCount[c]
          || reader.count() > 0
              && (reader.minTime() != chunkMin[c] || reader.maxTime() != chunkMax[c])) {
        throw new org.apache.lucene.index.CorruptIndexException(
            "chunk " + c + " disagrees with the series file's chunk index", directory.toString());
      }
      points.reset(reader);
      while (points.next()) {
        read++;
      }
    }
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
    return chunkOffset.length;
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
      if (hasChunkIn(s, from, to) && selector.test().test(keys[s])) {
        to1.accept(keys[s]);
      }
    }
  }

  private boolean hasChunkIn(int s, long from, long to) {
    for (int c = firstChunk[s]; c < firstChunk[s + 1]; c++) {
      if (chunkMin[c] < to && chunkMax[c] >= from) {
        return true;
      }
    }
    return false;
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
      if (!hasChunkIn(s, from, to)) {
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
      for (int c = firstChunk[s]; c < firstChunk[s + 1]; c++) {
        readChunk(data, c, sink, decoder);
      }
    }
  }

  /** Series {@code s}'s chunks are numbers {@code [firstChunk(s), firstChunk(s + 1))}. */
  int firstChunk(int s) {
    return firstChunk[s];
  }

  /** Chunk {@code c}'s points in the decoder's range into {@code sink} ({@link ChunkDecoder}). */
  void readChunk(
      java.nio.ByteBuffer data, int c, MetricScanVisitor.Points sink, ChunkDecoder decoder)
      throws IOException {
    if (decoder.wanted(chunkMin[c], chunkMax[c], chunkCount[c], sink)) {
      byte[] scratch = decoder.scratch(chunkLength[c]);
      data.get(chunkOffset[c], scratch, 0, chunkLength[c]);
      decoder.decode(scratch, 0, chunkLength[c], sink);
    }
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
      if (firstChunk[s] < firstChunk[s + 1]
          && hasChunkIn(s, from, to)
          && selector.test().test(keys[s])) {
        to1.accept(keys[s], new long[] {chunkMin[firstChunk[s]], chunkMax[firstChunk[s + 1] - 1]});
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
    MetricChunkReader reader = new MetricChunkReader();
    List<HotBucket.Selected> selected = new ArrayList<>();
    for (int s : candidates(selector)) {
      if (!hasChunkIn(s, from, to) || !only.contains(keys[s])) {
        continue;
      }
      if (!selector.test().test(keys[s])) {
        continue; // counted by the scan of the bucket's other series
      }
      List<Chunk> list = new ArrayList<>();
      for (int c = firstChunk[s]; c < firstChunk[s + 1]; c++) {
        if (chunkMin[c] >= to || chunkMax[c] < from) {
          counts[3]++;
          continue;
        }
        byte[] bytes = copy(data, c);
        reader.reset(bytes, 0, bytes.length); // its checksum, before it is kept
        list.add(new Chunk(bytes, chunkMin[c], chunkMax[c], chunkCount[c]));
      }
      selected.add(new HotBucket.Selected(keys[s], list));
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

  /** Chunk {@code c}'s bytes, copied out of the mapped chunk file. */
  private byte[] copy(java.nio.ByteBuffer data, int c) {
    byte[] bytes = new byte[chunkLength[c]];
    data.get(chunkOffset[c], bytes);
    return bytes;
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
