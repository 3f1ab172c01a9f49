package io.quarry.codecs.metricstore;

import io.quarry.codecs.metric.MetricChunkReader;
import io.quarry.codecs.metric.MetricPointIterator;
import java.io.IOException;

/**
 * Decodes chunks of a scan into a series' receiver, one reader's buffers reused from chunk to chunk
 * (one per thread of a scan): a chunk outside the range is skipped unread, one inside it offered
 * whole first ({@link MetricScanVisitor.Points#wholeChunk}), else its points in range handed on.
 * The counters are {@link MetricScanStats}' (chunks read and skipped, points). A decoder holds what
 * is fixed for its thread of the scan — the range {@code [from, to)} and the counters — so a chunk
 * read names only its chunk and its series' receiver.
 */
final class ChunkDecoder {
  private final long from;
  private final long to;
  private final long[] counts;
  private final MetricChunkReader reader = new MetricChunkReader();
  private final MetricPointIterator iterator = new MetricPointIterator();
  private byte[] scratch = new byte[512];

  /** A decoder of the points in {@code [from, to)}, counting into {@code counts}. */
  ChunkDecoder(long from, long to, long[] counts) {
    this.from = from;
    this.to = to;
    this.counts = counts;
  }

  /**
   * Whether a chunk of bounds {@code [min, max]} and {@code count} points is to be decoded (false:
   * outside the range, or taken whole by {@code sink}); counts it either way.
   */
  boolean wanted(long min, long max, int count, MetricScanVisitor.Points sink) {
    if (min >= to || max < from) {
      counts[3]++;
      return false;
    }
    counts[2]++;
    if (min >= from && max < to && sink.wholeChunk(min, max, count)) {
      counts[4] += count;
      return false;
    }
    return true;
  }

  /** A scratch buffer of at least {@code length} bytes, for a chunk copied out of a mapping. */
  byte[] scratch(int length) {
    if (scratch.length < length) {
      scratch = new byte[Math.max(length, scratch.length * 2)];
    }
    return scratch;
  }

  /** Hands the points of the chunk in {@code bytes[offset, offset + length)} in range to sink. */
  void decode(byte[] bytes, int offset, int length, MetricScanVisitor.Points sink)
      throws IOException {
    reader.reset(bytes, offset, length);
    iterator.reset(reader, from, to);
    while (iterator.next()) {
      sink.point(iterator.timestamp(), iterator.value());
      counts[4]++;
    }
  }
}
