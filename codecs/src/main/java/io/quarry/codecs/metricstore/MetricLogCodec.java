package io.quarry.codecs.metricstore;

import java.io.IOException;
import org.apache.lucene.store.ByteArrayDataInput;
import org.apache.lucene.store.ByteBuffersDataOutput;

/**
 * Serializes a batch of points for {@link MetricLog}, each series written once per record:
 *
 * <pre>
 * Payload   := SeriesCount (vint), Series^SeriesCount, PointCount (vint), Point^PointCount
 * Series    := MetricName (string), DimCount (vint), &lt;Name (string), Value (string)&gt;^DimCount
 *              -- names sorted and distinct
 * Point     := SeriesOrdinal (vint: into this record's Series), Time (zlong, epoch µs),
 *              ValueBits (long, Lucene's little-endian: IEEE 754 bits, raw)
 * </pre>
 *
 * Strings are Lucene's ({@code vint} length, UTF-8).
 */
final class MetricLogCodec {
  private MetricLogCodec() {}

  /**
   * Encodes a batch after {@code headerBytes} bytes left for the caller (the log's record header):
   * the bytes Lucene's {@code DataOutput} would write, written straight into an array.
   *
   * @return the header's room and the payload, from 0 to the limit
   */
  static java.nio.ByteBuffer encode(MetricBatch batch, int headerBytes) {
    int seriesBytes = 0;
    for (int s = 0; s < batch.seriesCount(); s++) {
      seriesBytes += batch.series(s).encoded().length;
    }
    // at most 5 bytes per vint, 10 per zlong, 8 per value
    byte[] out = new byte[headerBytes + 10 + seriesBytes + 23 * batch.size()];
    int at = writeVInt(out, headerBytes, batch.seriesCount());
    for (int s = 0; s < batch.seriesCount(); s++) {
      byte[] key = batch.series(s).encoded();
      System.arraycopy(key, 0, out, at, key.length);
      at += key.length;
    }
    at = writeVInt(out, at, batch.size());
    for (int i = 0; i < batch.size(); i++) {
      at = writeVInt(out, at, batch.ordinal(i));
      long time = batch.time(i);
      at = writeVLong(out, at, (time >> 63) ^ (time << 1)); // zig-zag, as writeZLong
      LONG_LE.set(out, at, Double.doubleToRawLongBits(batch.value(i)));
      at += Long.BYTES;
    }
    return java.nio.ByteBuffer.wrap(out, 0, at);
  }

  private static final java.lang.invoke.VarHandle LONG_LE =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
          long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

  private static int writeVInt(byte[] out, int at, int value) {
    while ((value & ~0x7F) != 0) {
      out[at++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    out[at++] = (byte) value;
    return at;
  }

  private static int writeVLong(byte[] out, int at, long value) {
    while ((value & ~0x7FL) != 0) {
      out[at++] = (byte) ((value & 0x7FL) | 0x80L);
      value >>>= 7;
    }
    out[at++] = (byte) value;
    return at;
  }

  /** The payload alone, as Lucene's {@code DataOutput} writes it: the reference of the tests. */
  static byte[] encodeWithDataOutput(MetricBatch batch) throws IOException {
    ByteBuffersDataOutput out = new ByteBuffersDataOutput();
    out.writeVInt(batch.seriesCount());
    for (int s = 0; s < batch.seriesCount(); s++) {
      writeSeries(out, batch.series(s));
    }
    out.writeVInt(batch.size());
    for (int i = 0; i < batch.size(); i++) {
      out.writeVInt(batch.ordinal(i));
      out.writeZLong(batch.time(i));
      out.writeLong(Double.doubleToRawLongBits(batch.value(i)));
    }
    return out.toArrayCopy();
  }

  static void writeSeries(org.apache.lucene.store.DataOutput out, SeriesKey key)
      throws IOException {
    out.writeString(key.metricName());
    out.writeVInt(key.size());
    for (int d = 0; d < key.size(); d++) {
      out.writeString(key.name(d));
      out.writeString(key.value(d));
    }
  }

  static SeriesKey readSeries(org.apache.lucene.store.DataInput in) throws IOException {
    String name = in.readString();
    int dims = in.readVInt();
    if (dims < 0 || dims > 1 << 16) {
      throw new IOException("a series with " + dims + " dimensions");
    }
    String[] names = new String[dims];
    String[] values = new String[dims];
    for (int d = 0; d < dims; d++) {
      names[d] = in.readString();
      values[d] = in.readString();
    }
    try {
      return SeriesKey.ofSorted(name, names, values);
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  static MetricBatch decode(byte[] payload) throws IOException {
    ByteArrayDataInput in = new ByteArrayDataInput(payload);
    int seriesCount = in.readVInt();
    if (seriesCount < 0 || seriesCount > payload.length) {
      throw new IOException("a record of " + seriesCount + " series");
    }
    SeriesKey[] series = new SeriesKey[seriesCount];
    for (int i = 0; i < seriesCount; i++) {
      series[i] = readSeries(in);
    }
    int count = in.readVInt();
    if (count < 0 || count > payload.length) {
      throw new IOException("a record of " + count + " points");
    }
    MetricBatch batch = new MetricBatch(count);
    for (SeriesKey key : series) {
      batch.addSeries(key);
    }
    for (int i = 0; i < count; i++) {
      int ordinal = in.readVInt();
      if (ordinal < 0 || ordinal >= seriesCount) {
        throw new IOException("a point of series " + ordinal + " of " + seriesCount);
      }
      long time = in.readZLong();
      double value = Double.longBitsToDouble(in.readLong());
      batch.add(ordinal, time, value);
    }
    if (in.getPosition() != payload.length) {
      throw new IOException(
          "record has " + (payload.length - in.getPosition()) + " trailing bytes");
    }
    return batch;
  }
}
