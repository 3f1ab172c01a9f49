package io.quarry.codecs.metric;

import org.apache.lucene.index.CorruptIndexException;

/**
 * The metric chunk: the points of one time series over a stretch of time, in one self-checking byte
 * string. Timestamps are epoch microseconds ({@code long}), values {@code double}s.
 *
 * <p><b>Principle.</b> Gorilla's scheme (Pelkonen et al., VLDB 2015), with our own bit layout for
 * microsecond timestamps. A series is sampled at a nearly constant interval and its values change
 * little from one point to the next, so each point is written as the difference from what the
 * previous points predict: the timestamp as the change of the interval (delta of delta), usually
 * {@code 0} and one bit; the value as the XOR of its IEEE 754 bits with the previous value's,
 * usually zero (one bit) or a short run of meaningful bits between long runs of leading and
 * trailing zeros, which are written as a window (leading zeros, length) that later points reuse
 * while their meaningful bits fit inside it (the writer declares a new window instead when that is
 * shorter than reusing a much wider one; readers need not know). Points are decoded in order from
 * the start of the chunk; a reader looking for a time range checks the header's {@code MinTime} and
 * {@code MaxTime} first and decodes nothing when the chunk lies outside it.
 *
 * <p><b>Grammar.</b> Bytes, then the bit payload (bits most significant first, a {@code '10'} is a
 * one bit then a zero bit):
 *
 * <pre>
 * Chunk     := Length (vint: bytes of Body and Crc), Body, Crc
 * Body      := Version (byte), Count (vint), [MinTime (zlong), TimeSpan (vlong, unsigned: MaxTime
 *              - MinTime), Payload]          -- the bracket only when Count &gt; 0
 * Crc       := CRC32C of every byte of Length and Body (int, big-endian)
 * Payload   := FirstValue (64 bits), Point^(Count - 1), zero bits up to a byte boundary
 * Point     := TimeDod, Value
 * TimeDod   := '0'                          -- delta_i = delta_(i-1)
 *            | '10'   Dod (14 bits)         -- two's complement: -8,192 .. 8,191 µs
 *            | '110'  Dod (28 bits)         -- ± 134 s
 *            | '1110' Dod (40 bits)         -- ± 6.4 days
 *            | '1111' Dod (64 bits)
 * Value     := '0'                          -- the same bits as the previous value
 *            | '10' Meaningful              -- XOR inside the current window
 *            | '11' Leading (5 bits) LengthMinusOne (6 bits) Meaningful   -- a new window
 * </pre>
 *
 * The first point's timestamp is {@code MinTime} and its value {@code FirstValue}. Point {@code i}
 * has {@code delta_i = delta_(i-1) + Dod} with {@code delta_0 = 0} (so the first {@code Dod} is the
 * first interval) and {@code time_i = time_(i-1) + delta_i}, all modulo 2^64, which keeps any two
 * in-order {@code long} timestamps representable; the last point's time is {@code MaxTime}. Its
 * value is the previous value's bits XOR {@code Meaningful << Trailing}: a new window sets {@code
 * Leading} (0–31), {@code Length = LengthMinusOne + 1} and {@code Trailing = 64 - Leading -
 * Length}; {@code '10'} reads {@code Length} bits into the current window, and is invalid before
 * the first window. Varints are 7 bits a byte, low group first, high bit set on all but the last
 * byte; a zlong is the zig-zag transform of a long as a vlong.
 *
 * <p><b>Policies</b> (enforced by {@link MetricChunkWriter}): points are appended in time order, a
 * point before the last one is refused ({@link OutOfOrderPointException}: the ingest path buffers
 * and sorts a window); a point at the same time as the last one replaces it (the last value wins: a
 * re-sent batch or a corrected sample, never two values at one instant); any double — NaN with its
 * payload bits, ±Infinity, {@code -0.0} — is stored bit for bit; an empty chunk (Count 0) is valid;
 * a chunk holds at most {@link #MAX_POINTS} points, and a writer is full at its own limit ({@link
 * MetricChunkWriter#DEFAULT_MAX_POINTS} by default).
 *
 * <p><b>Integrity.</b> The reader parses the length, checks the CRC32C over the whole chunk before
 * it interprets anything else (so a flipped bit anywhere is reported as a checksum failure, not
 * misread), then the version, then the header's limits; decoding checks that the payload holds
 * {@code Count} points, that timestamps never go back and that the last one is {@code MaxTime}.
 * Truncated input is reported with the bytes it needed and had.
 *
 * <p><b>Limitations.</b> One series per chunk and no series identity: the series dictionary and the
 * files that hold chunks (with their own headers and footers) are built on top of this. No random
 * access inside a chunk: a range read decodes from the start of an overlapping chunk. Timestamps
 * with jitter cost 16 bits a point ({@code '10'} and 14 bits for up to ±8 ms in microseconds), even
 * when they are whole milliseconds; a time unit in the header (times divided by 1,000 when all are
 * whole milliseconds) would bring that to a few bits, in a new version. Values that are decimal
 * fractions (0.1 steps) have long XORs and cost several bytes per point, as in Gorilla; a
 * decimal-scaled integer mode (VictoriaMetrics' approach) would be a new version.
 */
public final class MetricChunkFormat {
  /** The first and only version: the grammar above. */
  public static final int VERSION_START = 1;

  public static final int VERSION_CURRENT = VERSION_START;

  /** No chunk holds more points than this; a reader refuses a header that says more. */
  public static final int MAX_POINTS = 4096;

  /** Bytes of the CRC32C at the end of every chunk. */
  static final int CRC_BYTES = Integer.BYTES;

  /** The resource named by corruption messages. */
  static final String RESOURCE = "metric chunk";

  private MetricChunkFormat() {}

  // --- variable-length integers: the grammar's vint, vlong and zlong ---

  /** Bytes {@link #writeVLong} takes for {@code value}, read as unsigned. */
  static int vLongLength(long value) {
    return value == 0 ? 1 : (64 - Long.numberOfLeadingZeros(value) + 6) / 7;
  }

  /** Writes {@code value} as an unsigned varint at {@code offset}; returns the offset after it. */
  static int writeVLong(byte[] bytes, int offset, long value) {
    while ((value & ~0x7FL) != 0) {
      bytes[offset++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    bytes[offset++] = (byte) value;
    return offset;
  }

  static long zigZag(long value) {
    return (value << 1) ^ (value >> 63);
  }

  static long unZigZag(long value) {
    return (value >>> 1) ^ -(value & 1);
  }

  /**
   * Reads an unsigned varint of at most 10 bytes from {@code bytes[position[0], end)}, advancing
   * {@code position[0]}.
   */
  static long readVLong(byte[] bytes, int[] position, int end, String field)
      throws CorruptIndexException {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int at = position[0];
      if (at >= end) {
        throw new TruncatedChunkException(
            "metric chunk truncated inside its " + field + " (" + (end - at) + " bytes left)");
      }
      byte b = bytes[at];
      position[0] = at + 1;
      value |= (b & 0x7FL) << shift;
      if (b >= 0) {
        if (shift == 63 && (b & 0x7F) > 1) {
          break;
        }
        return value;
      }
    }
    throw new CorruptIndexException("metric chunk: malformed varint in its " + field, RESOURCE);
  }
}
