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

  static byte[] encode(MetricBatch batch) throws IOException {
    ByteBuffersDataOutput out = new ByteBuffersDataOutput(16L + 12L * batch.size());
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
