package io.quarry.codecs.metricstore;

import io.quarry.codecs.metric.MetricChunkReader;
import io.quarry.codecs.metric.MetricPointIterator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.CorruptIndexException;

/**
 * The chunk index of a warm bucket's series file ({@link SeriesFileReader}): where each chunk lies
 * in the chunk file, its point count and time bounds, and which chunks each series has — series
 * {@code s}'s are numbers {@code [first(s), first(s + 1))}, in time order. It answers what a query
 * can learn without reading a chunk, and copies or decodes chunks out of the mapped chunk file.
 */
final class WarmChunkIndex {
  private final int[] firstChunk; // series i's chunks are [firstChunk[i], firstChunk[i + 1])
  private final int[] chunkOffset;
  private final int[] chunkLength;
  private final int[] chunkCount;
  private final long[] chunkMin;
  private final long[] chunkMax;

  WarmChunkIndex(
      int[] firstChunk,
      int[] chunkOffset,
      int[] chunkLength,
      int[] chunkCount,
      long[] chunkMin,
      long[] chunkMax) {
    this.firstChunk = firstChunk;
    this.chunkOffset = chunkOffset;
    this.chunkLength = chunkLength;
    this.chunkCount = chunkCount;
    this.chunkMin = chunkMin;
    this.chunkMax = chunkMax;
  }

  /** The number of the first chunk of series {@code s} (of {@code s + 1}: past its last). */
  int first(int s) {
    return firstChunk[s];
  }

  /** The chunks of every series. */
  int count() {
    return chunkOffset.length;
  }

  /** Whether series {@code s} has a chunk overlapping {@code [from, to)}. */
  boolean hasChunkIn(int s, long from, long to) {
    for (int c = firstChunk[s]; c < firstChunk[s + 1]; c++) {
      if (chunkMin[c] < to && chunkMax[c] >= from) {
        return true;
      }
    }
    return false;
  }

  /** Series {@code s}'s time span from its chunks' bounds (it has one chunk at least). */
  long[] span(int s) {
    return new long[] {chunkMin[firstChunk[s]], chunkMax[firstChunk[s + 1] - 1]};
  }

  /** Series {@code s}' chunks, checked and copied out of the chunk file, in time order. */
  List<Chunk> chunks(ByteBuffer data, int s) throws IOException {
    List<Chunk> list = new ArrayList<>(firstChunk[s + 1] - firstChunk[s]);
    MetricChunkReader reader = new MetricChunkReader();
    for (int c = firstChunk[s]; c < firstChunk[s + 1]; c++) {
      list.add(checked(data, c, reader));
    }
    return list;
  }

  /**
   * Series {@code s}' chunks overlapping {@code [from, to)}, checked and copied; each one left out
   * adds to {@code counts[3]}.
   */
  List<Chunk> chunksIn(ByteBuffer data, int s, long from, long to, long[] counts)
      throws IOException {
    MetricChunkReader reader = new MetricChunkReader();
    List<Chunk> list = new ArrayList<>();
    for (int c = firstChunk[s]; c < firstChunk[s + 1]; c++) {
      if (chunkMin[c] >= to || chunkMax[c] < from) {
        counts[3]++;
        continue;
      }
      list.add(checked(data, c, reader));
    }
    return list;
  }

  private Chunk checked(ByteBuffer data, int c, MetricChunkReader reader) throws IOException {
    byte[] bytes = copy(data, c);
    reader.reset(bytes, 0, bytes.length); // its checksum, before it is kept
    return new Chunk(bytes, chunkMin[c], chunkMax[c], chunkCount[c]);
  }

  /** Chunk {@code c}'s points in the decoder's range into {@code sink} ({@link ChunkDecoder}). */
  void read(ByteBuffer data, int c, MetricScanVisitor.Points sink, ChunkDecoder decoder)
      throws IOException {
    if (decoder.wanted(chunkMin[c], chunkMax[c], chunkCount[c], sink)) {
      byte[] scratch = decoder.scratch(chunkLength[c]);
      data.get(chunkOffset[c], scratch, 0, chunkLength[c]);
      decoder.decode(scratch, 0, chunkLength[c], sink);
    }
  }

  /**
   * Reads every chunk as {@code quarry fsck} does: its checksum and points, its count and time
   * bounds against this index's.
   *
   * @return the points read
   * @throws CorruptIndexException naming {@code directory} when a chunk disagrees
   */
  long verify(ByteBuffer data, Path directory) throws IOException {
    MetricChunkReader reader = new MetricChunkReader();
    MetricPointIterator points = new MetricPointIterator();
    long read = 0;
    for (int c = 0; c < chunkOffset.length; c++) {
      byte[] bytes = copy(data, c);
      reader.reset(bytes, 0, bytes.length);
      if (reader.count() != chunkCount[c]
          || reader.count() > 0
              && (reader.minTime() != chunkMin[c] || reader.maxTime() != chunkMax[c])) {
        throw new CorruptIndexException(
            "chunk " + c + " disagrees with the series file's chunk index", directory.toString());
      }
      points.reset(reader);
      while (points.next()) {
        read++;
      }
    }
    return read;
  }

  /** Chunk {@code c}'s bytes, copied out of the mapped chunk file. */
  private byte[] copy(ByteBuffer data, int c) {
    byte[] bytes = new byte[chunkLength[c]];
    data.get(chunkOffset[c], bytes);
    return bytes;
  }
}
