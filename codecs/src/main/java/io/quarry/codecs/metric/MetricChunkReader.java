package io.quarry.codecs.metric;

import java.io.IOException;
import java.util.zip.CRC32C;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;

/**
 * One chunk's header, read and checked: {@link #reset} finds the chunk's length, verifies its
 * CRC32C and version and parses {@code Count}, {@code MinTime} and {@code MaxTime}, without
 * decoding a point. {@link MetricPointIterator} decodes the points. Reusable across chunks; not
 * thread-safe.
 *
 * <p>A time range is {@code [from, to)} in epoch microseconds, the search's {@code earliest}
 * inclusive and {@code latest} exclusive; {@link #overlaps} answers from the header alone, and an
 * iterator over a range the chunk does not overlap never touches the payload.
 */
public final class MetricChunkReader {
  /** A chunk's largest possible length: every point in the widest encoding, plus the header. */
  static final int MAX_LENGTH = 1 << 17;

  private final CRC32C crc = new CRC32C();
  private byte[] bytes;
  private int offset;
  private int length;
  private int version;
  private int count;
  private long minTime;
  private long maxTime;
  private int payloadOffset;
  private int payloadLength;

  public MetricChunkReader() {}

  /** Reads the chunk that fills {@code bytes}. */
  public static MetricChunkReader of(byte[] bytes) throws IOException {
    return new MetricChunkReader().reset(bytes, 0, bytes.length);
  }

  /**
   * Reads the chunk that starts at {@code offset}; {@code available} bytes from there may hold it
   * (more is fine: a chunk knows its {@link #length()}).
   *
   * @throws TruncatedChunkException when the bytes end before the chunk does
   * @throws CorruptIndexException when the checksum or the header is wrong
   * @throws IndexFormatTooNewException when the chunk was written by a newer version
   */
  public MetricChunkReader reset(byte[] bytes, int offset, int available) throws IOException {
    if (offset < 0 || available < 0 || offset > bytes.length - available) {
      throw new IndexOutOfBoundsException(
          "offset " + offset + ", " + available + " bytes of " + bytes.length);
    }
    this.bytes = null;
    int end = offset + available;
    int[] position = {offset};
    long bodyAndCrc = MetricChunkFormat.readVLong(bytes, position, end, "length");
    int bodyStart = position[0];
    if (bodyAndCrc < 2 + MetricChunkFormat.CRC_BYTES || bodyAndCrc > MAX_LENGTH) {
      throw new CorruptIndexException(
          "metric chunk length " + bodyAndCrc + " is out of range", MetricChunkFormat.RESOURCE);
    }
    if (bodyAndCrc > end - bodyStart) {
      throw new TruncatedChunkException(
          "metric chunk truncated: its length says "
              + bodyAndCrc
              + " bytes follow the length field, only "
              + (end - bodyStart)
              + " are there");
    }
    int crcStart = bodyStart + (int) bodyAndCrc - MetricChunkFormat.CRC_BYTES;
    crc.reset();
    crc.update(bytes, offset, crcStart - offset);
    int computed = (int) crc.getValue();
    int stored =
        (bytes[crcStart] & 0xFF) << 24
            | (bytes[crcStart + 1] & 0xFF) << 16
            | (bytes[crcStart + 2] & 0xFF) << 8
            | (bytes[crcStart + 3] & 0xFF);
    if (computed != stored) {
      throw new CorruptIndexException(
          String.format(
              "metric chunk checksum failed: stored CRC32C 0x%08x, computed 0x%08x over %d bytes",
              stored, computed, crcStart - offset),
          MetricChunkFormat.RESOURCE);
    }
    int chunkVersion = bytes[bodyStart] & 0xFF;
    if (chunkVersion < MetricChunkFormat.VERSION_START) {
      throw new IndexFormatTooOldException(
          MetricChunkFormat.RESOURCE,
          chunkVersion,
          MetricChunkFormat.VERSION_START,
          MetricChunkFormat.VERSION_CURRENT);
    }
    if (chunkVersion > MetricChunkFormat.VERSION_CURRENT) {
      throw new IndexFormatTooNewException(
          MetricChunkFormat.RESOURCE,
          chunkVersion,
          MetricChunkFormat.VERSION_START,
          MetricChunkFormat.VERSION_CURRENT);
    }
    position[0] = bodyStart + 1;
    long pointCount = MetricChunkFormat.readVLong(bytes, position, crcStart, "point count");
    if (pointCount > MetricChunkFormat.MAX_POINTS) {
      throw new CorruptIndexException(
          "metric chunk says " + pointCount + " points, more than " + MetricChunkFormat.MAX_POINTS,
          MetricChunkFormat.RESOURCE);
    }
    long first = 0;
    long last = 0;
    if (pointCount > 0) {
      first =
          MetricChunkFormat.unZigZag(
              MetricChunkFormat.readVLong(bytes, position, crcStart, "minimum time"));
      long span = MetricChunkFormat.readVLong(bytes, position, crcStart, "time span");
      if (Long.compareUnsigned(span, Long.MAX_VALUE - first) > 0) {
        throw new CorruptIndexException(
            "metric chunk time span " + Long.toUnsignedString(span) + " overflows from " + first,
            MetricChunkFormat.RESOURCE);
      }
      last = first + span;
      if (crcStart - position[0] < Long.BYTES) {
        throw new CorruptIndexException(
            "metric chunk payload of " + (crcStart - position[0]) + " bytes cannot hold a value",
            MetricChunkFormat.RESOURCE);
      }
    } else if (position[0] != crcStart) {
      throw new CorruptIndexException(
          "empty metric chunk has " + (crcStart - position[0]) + " payload bytes",
          MetricChunkFormat.RESOURCE);
    }
    this.bytes = bytes;
    this.offset = offset;
    this.length = crcStart + MetricChunkFormat.CRC_BYTES - offset;
    this.version = chunkVersion;
    this.count = (int) pointCount;
    this.minTime = first;
    this.maxTime = last;
    this.payloadOffset = position[0];
    this.payloadLength = crcStart - position[0];
    return this;
  }

  /** Bytes the chunk takes from its offset: where the next chunk would start. */
  public int length() {
    checkOpen();
    return length;
  }

  public int version() {
    checkOpen();
    return version;
  }

  /** Points in the chunk. */
  public int count() {
    checkOpen();
    return count;
  }

  /** The first point's time; {@link Long#MAX_VALUE} for an empty chunk. */
  public long minTime() {
    checkOpen();
    return count == 0 ? Long.MAX_VALUE : minTime;
  }

  /** The last point's time; {@link Long#MIN_VALUE} for an empty chunk. */
  public long maxTime() {
    checkOpen();
    return count == 0 ? Long.MIN_VALUE : maxTime;
  }

  /** Whether any point may lie in {@code [from, to)}: the header's answer, nothing decoded. */
  public boolean overlaps(long from, long to) {
    checkOpen();
    return count > 0 && minTime < to && maxTime >= from && from < to;
  }

  /** Every point, in time order. */
  public MetricPointIterator iterator() {
    return new MetricPointIterator().reset(this);
  }

  /** The points in {@code [from, to)}, in time order. */
  public MetricPointIterator iterator(long from, long to) {
    return new MetricPointIterator().reset(this, from, to);
  }

  private void checkOpen() {
    if (bytes == null) {
      throw new IllegalStateException("no metric chunk read (or the last reset failed)");
    }
  }

  byte[] bytes() {
    checkOpen();
    return bytes;
  }

  int payloadOffset() {
    return payloadOffset;
  }

  int payloadLength() {
    return payloadLength;
  }

  long rawMinTime() {
    return minTime;
  }

  long rawMaxTime() {
    return maxTime;
  }

  int offset() {
    return offset;
  }
}
