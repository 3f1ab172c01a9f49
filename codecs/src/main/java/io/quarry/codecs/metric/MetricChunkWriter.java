package io.quarry.codecs.metric;

import java.util.zip.CRC32C;

/**
 * Encodes the points of one series into a chunk ({@link MetricChunkFormat} has the grammar and the
 * policies). Reusable: {@link #reset} starts a new chunk over the same buffers, so a writer per
 * ingest thread allocates nothing per point.
 *
 * <pre>{@code
 * MetricChunkWriter writer = new MetricChunkWriter();
 * for (...) {
 *   if (writer.isFull()) { store(writer.toByteArray()); writer.reset(); }
 *   writer.append(timeMicros, value);
 * }
 * }</pre>
 */
public final class MetricChunkWriter {
  /** Points per chunk unless told otherwise: about 2.8 hours at a 10 s interval. */
  public static final int DEFAULT_MAX_POINTS = 1024;

  /**
   * A window (Leading, Length) costs this many bits more than reusing one: '11' + 5 + 6 vs '10'.
   */
  private static final int NEW_WINDOW_EXTRA_BITS = 11;

  private final int maxPoints;
  private final BitWriter bits;
  private final CRC32C crc = new CRC32C();

  private int count;
  private long minTime;

  // the state after the last point
  private long lastTime;
  private long lastDelta;
  private long lastValueBits;
  private int leading = -1; // -1: no window yet
  private int trailing;

  // the state before the last point, to rewrite it when a point at the same time arrives
  private long undoBitLength;
  private long undoTime;
  private long undoDelta;
  private long undoValueBits;
  private int undoLeading;
  private int undoTrailing;

  public MetricChunkWriter() {
    this(DEFAULT_MAX_POINTS);
  }

  /**
   * @param maxPoints the point count at which the chunk is full, 1 to {@link
   *     MetricChunkFormat#MAX_POINTS}
   */
  public MetricChunkWriter(int maxPoints) {
    if (maxPoints < 1 || maxPoints > MetricChunkFormat.MAX_POINTS) {
      throw new IllegalArgumentException(
          "maxPoints must be 1 to " + MetricChunkFormat.MAX_POINTS + ": " + maxPoints);
    }
    this.maxPoints = maxPoints;
    this.bits = new BitWriter(Math.min(maxPoints, 256) * 2);
  }

  public int maxPoints() {
    return maxPoints;
  }

  /** Points in the chunk (a replaced point counts once). */
  public int count() {
    return count;
  }

  /** Whether the chunk holds {@link #maxPoints()} points: a new time must go to a new chunk. */
  public boolean isFull() {
    return count >= maxPoints;
  }

  /** The first point's time; only meaningful when {@link #count()} &gt; 0. */
  public long minTime() {
    return minTime;
  }

  /** The last point's time; only meaningful when {@link #count()} &gt; 0. */
  public long maxTime() {
    return lastTime;
  }

  /**
   * Appends a point. A point at the last point's time replaces its value; an earlier one is
   * refused.
   *
   * @throws OutOfOrderPointException when {@code timeMicros} is before the last point's time
   * @throws IllegalStateException when the chunk {@link #isFull() is full} and the point is at a
   *     new time
   */
  public void append(long timeMicros, double value) {
    long valueBits = Double.doubleToRawLongBits(value);
    if (count == 0) {
      minTime = timeMicros;
      saveUndo();
      bits.writeBits(valueBits, 64);
      lastTime = timeMicros;
      lastValueBits = valueBits;
      count = 1;
      return;
    }
    if (timeMicros < lastTime) {
      throw new OutOfOrderPointException(timeMicros, lastTime);
    }
    if (timeMicros == lastTime) {
      replaceLast(valueBits);
      return;
    }
    if (count >= maxPoints) {
      throw new IllegalStateException(
          "metric chunk is full ("
              + maxPoints
              + " points); write it and start a new chunk for the point at "
              + timeMicros);
    }
    saveUndo();
    appendPoint(timeMicros, valueBits);
    count++;
  }

  /** The last point takes a new value: its bits are rewritten from where it started. */
  private void replaceLast(long valueBits) {
    if (valueBits == lastValueBits) {
      return;
    }
    bits.truncate(undoBitLength);
    if (count == 1) {
      bits.writeBits(valueBits, 64);
      lastValueBits = valueBits;
      return;
    }
    long time = lastTime;
    lastTime = undoTime;
    lastDelta = undoDelta;
    lastValueBits = undoValueBits;
    leading = undoLeading;
    trailing = undoTrailing;
    appendPoint(time, valueBits);
  }

  private void saveUndo() {
    undoBitLength = bits.bitLength();
    undoTime = lastTime;
    undoDelta = lastDelta;
    undoValueBits = lastValueBits;
    undoLeading = leading;
    undoTrailing = trailing;
  }

  private void appendPoint(long time, long valueBits) {
    long delta = time - lastTime; // unsigned; all arithmetic modulo 2^64
    long dod = delta - lastDelta;
    if (dod == 0) {
      bits.writeBits(0b0, 1);
    } else if (fits(dod, 14)) {
      bits.writeBits(0b10L << 14 | (dod & 0x3FFFL), 16);
    } else if (fits(dod, 28)) {
      bits.writeBits(0b110L << 28 | (dod & 0xFFF_FFFFL), 31);
    } else if (fits(dod, 40)) {
      bits.writeBits(0b1110L << 40 | (dod & 0xFF_FFFF_FFFFL), 44);
    } else {
      bits.writeBits(0b1111, 4);
      bits.writeBits(dod, 64);
    }
    lastDelta = delta;
    lastTime = time;

    long xor = valueBits ^ lastValueBits;
    lastValueBits = valueBits;
    if (xor == 0) {
      bits.writeBits(0b0, 1);
      return;
    }
    int newLeading = Math.min(Long.numberOfLeadingZeros(xor), 31);
    int newTrailing = Long.numberOfTrailingZeros(xor);
    int newLength = 64 - newLeading - newTrailing;
    if (leading >= 0 && newLeading >= leading && newTrailing >= trailing) {
      int length = 64 - leading - trailing;
      // Gorilla always reuses a window that fits; a much wider window than the XOR needs costs
      // more than declaring a new one, so the cheaper of the two is written
      if (length <= newLength + NEW_WINDOW_EXTRA_BITS) {
        bits.writeBits(0b10, 2);
        bits.writeBits(xor >>> trailing, length);
        return;
      }
    }
    leading = newLeading;
    trailing = newTrailing;
    bits.writeBits(0b11L << 11 | (long) newLeading << 6 | (newLength - 1), 13);
    bits.writeBits(xor >>> newTrailing, newLength);
  }

  /** Whether {@code value} is a {@code width}-bit two's complement number. */
  private static boolean fits(long value, int width) {
    long limit = 1L << (width - 1);
    return value >= -limit && value < limit;
  }

  /** Bytes of the chunk as it stands: what {@link #writeTo} writes. */
  public int length() {
    int body = bodyLength();
    int length = body + MetricChunkFormat.CRC_BYTES;
    return MetricChunkFormat.vLongLength(length) + length;
  }

  private int bodyLength() {
    int body = 1 + MetricChunkFormat.vLongLength(count);
    if (count > 0) {
      body +=
          MetricChunkFormat.vLongLength(MetricChunkFormat.zigZag(minTime))
              + MetricChunkFormat.vLongLength(lastTime - minTime)
              + bits.byteLength();
    }
    return body;
  }

  /** Writes the chunk at {@code offset}; returns the bytes written ({@link #length()}). */
  public int writeTo(byte[] destination, int offset) {
    int length = bodyLength() + MetricChunkFormat.CRC_BYTES;
    int at = MetricChunkFormat.writeVLong(destination, offset, length);
    destination[at++] = (byte) MetricChunkFormat.VERSION_CURRENT;
    at = MetricChunkFormat.writeVLong(destination, at, count);
    if (count > 0) {
      at = MetricChunkFormat.writeVLong(destination, at, MetricChunkFormat.zigZag(minTime));
      at = MetricChunkFormat.writeVLong(destination, at, lastTime - minTime);
      bits.copyTo(destination, at);
      at += bits.byteLength();
    }
    crc.reset();
    crc.update(destination, offset, at - offset);
    int checksum = (int) crc.getValue();
    destination[at++] = (byte) (checksum >>> 24);
    destination[at++] = (byte) (checksum >>> 16);
    destination[at++] = (byte) (checksum >>> 8);
    destination[at++] = (byte) checksum;
    return at - offset;
  }

  /** The chunk as a new array. */
  public byte[] toByteArray() {
    byte[] bytes = new byte[length()];
    writeTo(bytes, 0);
    return bytes;
  }

  /** Starts a new, empty chunk. */
  public void reset() {
    bits.clear();
    count = 0;
    minTime = 0;
    lastTime = 0;
    lastDelta = 0;
    lastValueBits = 0;
    leading = -1;
    trailing = 0;
  }
}
