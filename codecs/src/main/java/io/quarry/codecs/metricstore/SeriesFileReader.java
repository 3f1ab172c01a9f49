package io.quarry.codecs.metricstore;

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
 * Reads a warm bucket's series file ({@code series.qms}, {@link MetricBucketFormat}'s grammar,
 * versions 1 and 2) into a {@link WarmBucket}: checked whole first, then parsed; anything that does
 * not parse is a {@link CorruptIndexException}.
 */
final class SeriesFileReader {
  private SeriesFileReader() {}

  static WarmBucket read(Path directory) throws IOException {
    Path file = directory.resolve(MetricBucketFormat.SERIES_FILE);
    MetricBucketFormat.Body checked =
        MetricBucketFormat.readChecked(
            file, MetricBucketFormat.SERIES_MAGIC, MetricBucketFormat.SERIES_VERSION_CURRENT);
    byte[] body = checked.bytes();
    try {
      ByteArrayDataInput in = new ByteArrayDataInput(body);
      long id = in.readVLong();
      long minTime = in.readZLong();
      long maxTime = in.readZLong();
      long points = in.readVLong();
      long walGeneration = in.readVLong();
      long firstRoll = id;
      long lastRoll = id;
      if (checked.version() >= MetricBucketFormat.VERSION_ROLLS) {
        firstRoll = in.readVLong();
        lastRoll = in.readVLong();
        if (lastRoll < firstRoll) {
          throw new CorruptIndexException(
              "rolls " + firstRoll + ".." + lastRoll + " out of order", file.toString());
        }
      }
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
          firstRoll,
          lastRoll,
          keys,
          new WarmChunkIndex(
              firstChunk,
              Arrays.copyOf(offsets.offset, offsets.size),
              Arrays.copyOf(offsets.length, offsets.size),
              Arrays.copyOf(offsets.count, offsets.size),
              chunkMin,
              chunkMax),
          postings,
          bytes);
    } catch (RuntimeException e) {
      throw new CorruptIndexException("series file does not parse: " + e, file.toString(), e);
    }
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
