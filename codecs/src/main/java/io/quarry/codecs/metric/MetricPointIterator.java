package io.quarry.codecs.metric;

import java.io.IOException;
import org.apache.lucene.index.CorruptIndexException;

/**
 * Decodes a chunk's points in time order, optionally only those in a time range {@code [from, to)}:
 * points before {@code from} are decoded and passed over (a chunk has no index inside it), decoding
 * stops at the first point at or after {@code to}, and a chunk that does not overlap the range is
 * not decoded at all. Reusable: {@link #reset} moves it to another chunk and keeps its buffers, so
 * a scan over many chunks allocates nothing per chunk.
 *
 * <pre>{@code
 * MetricPointIterator points = reader.iterator(from, to);
 * while (points.next()) {
 *   use(points.timestamp(), points.value());
 * }
 * }</pre>
 */
public final class MetricPointIterator {
  private final BitReader bits = new BitReader();
  private int count;
  private int index;
  private long from;
  private long to;
  private long maxTime;
  private boolean done;

  private long time;
  private long delta;
  private long valueBits;
  private int leading = -1;
  private int trailing;
  private int decoded;

  public MetricPointIterator() {
    done = true;
  }

  /** Iterates every point of {@code chunk}. */
  public MetricPointIterator reset(MetricChunkReader chunk) {
    return reset(chunk, Long.MIN_VALUE, Long.MAX_VALUE, true);
  }

  /** Iterates the points of {@code chunk} in {@code [from, to)}. */
  public MetricPointIterator reset(MetricChunkReader chunk, long from, long to) {
    return reset(chunk, from, to, false);
  }

  MetricPointIterator reset(MetricChunkReader chunk, long from, long to, boolean all) {
    this.from = from;
    this.to = to;
    this.index = 0;
    this.decoded = 0;
    this.leading = -1;
    this.trailing = 0;
    this.delta = 0;
    if (!(all ? chunk.count() > 0 : chunk.overlaps(from, to))) {
      this.count = 0;
      this.done = true;
      return this;
    }
    this.count = chunk.count();
    this.maxTime = chunk.rawMaxTime();
    this.time = chunk.rawMinTime();
    this.done = false;
    if (all) {
      this.to = Long.MIN_VALUE; // no upper bound: see next()
    }
    bits.reset(
        chunk.bytes(), chunk.payloadOffset(), chunk.payloadLength(), MetricChunkFormat.RESOURCE);
    return this;
  }

  /**
   * Moves to the next point in range.
   *
   * @return false when there is none
   * @throws CorruptIndexException when the payload does not decode to the header's points (the
   *     checksum matched, so the chunk was written wrong)
   */
  public boolean next() throws IOException {
    while (!done) {
      if (index == count) {
        done = true;
        return false;
      }
      decodePoint();
      if (time < from) {
        continue;
      }
      if (to != Long.MIN_VALUE && time >= to) {
        done = true;
        return false;
      }
      return true;
    }
    return false;
  }

  /** The current point's time, epoch microseconds. */
  public long timestamp() {
    return time;
  }

  /** The current point's value. */
  public double value() {
    return Double.longBitsToDouble(valueBits);
  }

  /** The current point's value as raw IEEE 754 bits (NaN payloads preserved). */
  public long valueBits() {
    return valueBits;
  }

  /** Points decoded since the last reset, in range or not: the work a range read did. */
  public int pointsDecoded() {
    return decoded;
  }

  private void decodePoint() throws IOException {
    decoded++;
    if (index++ == 0) {
      valueBits = bits.readBits(64);
      checkLast();
      return;
    }
    long dod;
    if (!bits.readBit()) {
      dod = 0;
    } else if (!bits.readBit()) {
      dod = signExtend(bits.readBits(14), 14);
    } else if (!bits.readBit()) {
      dod = signExtend(bits.readBits(28), 28);
    } else if (!bits.readBit()) {
      dod = signExtend(bits.readBits(40), 40);
    } else {
      dod = bits.readBits(64);
    }
    delta += dod;
    if (delta == 0 || Long.compareUnsigned(delta, maxTime - time) > 0) {
      throw new CorruptIndexException(
          "metric chunk point "
              + (index - 1)
              + " steps "
              + Long.toUnsignedString(delta)
              + " µs from "
              + time
              + ", outside the chunk's time range (max "
              + maxTime
              + ")",
          MetricChunkFormat.RESOURCE);
    }
    time += delta;

    if (bits.readBit()) {
      if (bits.readBit()) {
        long window = bits.readBits(11);
        int newLeading = (int) (window >>> 6);
        int length = (int) (window & 0x3F) + 1;
        if (newLeading + length > 64) {
          throw new CorruptIndexException(
              "metric chunk point "
                  + (index - 1)
                  + ": window of "
                  + length
                  + " bits after "
                  + newLeading
                  + " leading zeros",
              MetricChunkFormat.RESOURCE);
        }
        leading = newLeading;
        trailing = 64 - newLeading - length;
      } else if (leading < 0) {
        throw new CorruptIndexException(
            "metric chunk point " + (index - 1) + " reuses a window before the first one",
            MetricChunkFormat.RESOURCE);
      }
      valueBits ^= bits.readBits(64 - leading - trailing) << trailing;
    }
    checkLast();
  }

  private void checkLast() throws CorruptIndexException {
    if (index == count && time != maxTime) {
      throw new CorruptIndexException(
          "metric chunk's last point is at " + time + ", its header says " + maxTime,
          MetricChunkFormat.RESOURCE);
    }
  }

  private static long signExtend(long value, int width) {
    return value << (64 - width) >> (64 - width);
  }
}
