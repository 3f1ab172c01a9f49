package io.quarry.codecs.metricstore;

import io.quarry.codecs.metric.MetricChunkReader;
import io.quarry.codecs.metric.MetricPointIterator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.store.ByteArrayDataInput;

/**
 * A rolled, read-only metric bucket ({@link MetricBucketFormat}): the series file is read when the
 * bucket opens, the chunk file when a query first needs a chunk (then kept).
 */
final class WarmBucket {
  final long id;
  final Path directory;
  final long minTime;
  final long maxTime;
  final long points;
  final long walGeneration;
  private final SeriesKey[] keys;
  private final int[] firstChunk; // series i's chunks are [firstChunk[i], firstChunk[i + 1])
  private final int[] chunkOffset;
  private final int[] chunkLength;
  private final int[] chunkCount;
  private final long[] chunkMin;
  private final long[] chunkMax;
  private final Map<String, int[]> postings;
  private final long bytesOnDisk;
  private volatile byte[] chunks;

  private WarmBucket(
      long id,
      Path directory,
      long minTime,
      long maxTime,
      long points,
      long walGeneration,
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

  static WarmBucket open(Path directory) throws IOException {
    Path file = directory.resolve(MetricBucketFormat.SERIES_FILE);
    byte[] body = MetricBucketFormat.readChecked(file, MetricBucketFormat.SERIES_MAGIC);
    try {
      ByteArrayDataInput in = new ByteArrayDataInput(body);
      long id = in.readVLong();
      long minTime = in.readZLong();
      long maxTime = in.readZLong();
      long points = in.readVLong();
      long walGeneration = in.readVLong();
      int seriesCount = in.readVInt();
      SeriesKey[] keys = new SeriesKey[seriesCount];
      int[] firstChunk = new int[seriesCount + 1];
      IntArrays offsets = new IntArrays();
      List<long[]> times = new ArrayList<>();
      int offset = 0;
      for (int s = 0; s < seriesCount; s++) {
        keys[s] = MetricLogCodec.readSeries(in);
        firstChunk[s] = offsets.size;
        int count = in.readVInt();
        for (int c = 0; c < count; c++) {
          offset += (int) in.readVLong();
          int length = in.readVInt();
          int points1 = in.readVInt();
          long min = in.readZLong();
          long max = min + in.readVLong();
          offsets.add(offset, length, points1);
          times.add(new long[] {min, max});
          offset += length;
        }
      }
      firstChunk[seriesCount] = offsets.size;
      long[] chunkMin = new long[offsets.size];
      long[] chunkMax = new long[offsets.size];
      for (int c = 0; c < offsets.size; c++) {
        chunkMin[c] = times.get(c)[0];
        chunkMax[c] = times.get(c)[1];
      }
      int termCount = in.readVInt();
      Map<String, int[]> postings = new HashMap<>(termCount * 2);
      for (int t = 0; t < termCount; t++) {
        String term = in.readString();
        int[] ids = new int[in.readVInt()];
        int previous = 0;
        for (int i = 0; i < ids.length; i++) {
          previous += in.readVInt();
          if (previous >= seriesCount) {
            throw new CorruptIndexException("posting of series " + previous, file.toString());
          }
          ids[i] = previous;
        }
        postings.put(term, ids);
      }
      if (in.getPosition() != body.length) {
        throw new CorruptIndexException(
            (body.length - in.getPosition()) + " bytes after the postings", file.toString());
      }
      long bytes = Files.size(file) + Files.size(directory.resolve(MetricBucketFormat.CHUNKS_FILE));
      return new WarmBucket(
          id,
          directory,
          minTime,
          maxTime,
          points,
          walGeneration,
          keys,
          firstChunk,
          Arrays.copyOf(offsets.offset, offsets.size),
          Arrays.copyOf(offsets.length, offsets.size),
          Arrays.copyOf(offsets.count, offsets.size),
          chunkMin,
          chunkMax,
          postings,
          bytes);
    } catch (RuntimeException e) {
      throw new CorruptIndexException("series file does not parse: " + e, file.toString(), e);
    }
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
    byte[] data = chunks();
    MetricChunkReader reader = new MetricChunkReader();
    MetricPointIterator iterator = new MetricPointIterator();
    for (int s : candidates(selector)) {
      if (visitor.stopped()) {
        return;
      }
      if (!hasChunkIn(s, from, to)) {
        continue;
      }
      if (!selector.test().test(keys[s])) {
        counts[1]++;
        continue;
      }
      MetricScanVisitor.Points sink = visitor.series(keys[s]);
      if (sink == null) {
        continue;
      }
      counts[0]++;
      for (int c = firstChunk[s]; c < firstChunk[s + 1]; c++) {
        if (chunkMin[c] >= to || chunkMax[c] < from) {
          counts[3]++;
          continue;
        }
        counts[2]++;
        if (chunkMin[c] >= from
            && chunkMax[c] < to
            && sink.wholeChunk(chunkMin[c], chunkMax[c], chunkCount[c])) {
          counts[4] += chunkCount[c];
          continue;
        }
        reader.reset(data, chunkOffset[c], chunkLength[c]);
        iterator.reset(reader, from, to);
        while (iterator.next()) {
          sink.point(iterator.timestamp(), iterator.value());
          counts[4]++;
        }
      }
    }
  }

  private byte[] chunks() throws IOException {
    byte[] data = chunks;
    if (data == null) {
      synchronized (this) {
        data = chunks;
        if (data == null) {
          data = MetricBucketFormat.readChunks(directory);
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

  /** Offsets, lengths and counts of chunks as they are read. */
  private static final class IntArrays {
    int[] offset = new int[64];
    int[] length = new int[64];
    int[] count = new int[64];
    int size;

    void add(int o, int l, int c) {
      if (size == offset.length) {
        offset = Arrays.copyOf(offset, size * 2);
        length = Arrays.copyOf(length, size * 2);
        count = Arrays.copyOf(count, size * 2);
      }
      offset[size] = o;
      length[size] = l;
      count[size] = c;
      size++;
    }
  }
}
