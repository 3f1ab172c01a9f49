package io.quarry.codecs.metricstore;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

  static byte[] encode(List<MetricPoint> points) throws IOException {
    Map<SeriesKey, Integer> ordinals = new HashMap<>();
    List<SeriesKey> series = new ArrayList<>();
    int[] pointOrdinals = new int[points.size()];
    for (int i = 0; i < points.size(); i++) {
      SeriesKey key = points.get(i).series();
      Integer ordinal = ordinals.get(key);
      if (ordinal == null) {
        ordinal = series.size();
        ordinals.put(key, ordinal);
        series.add(key);
      }
      pointOrdinals[i] = ordinal;
    }
    ByteBuffersDataOutput out = new ByteBuffersDataOutput();
    out.writeVInt(series.size());
    for (SeriesKey key : series) {
      writeSeries(out, key);
    }
    out.writeVInt(points.size());
    for (int i = 0; i < points.size(); i++) {
      MetricPoint point = points.get(i);
      out.writeVInt(pointOrdinals[i]);
      out.writeZLong(point.timeMicros());
      out.writeLong(Double.doubleToRawLongBits(point.value()));
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

  static List<MetricPoint> decode(byte[] payload) throws IOException {
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
    List<MetricPoint> points = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int ordinal = in.readVInt();
      if (ordinal < 0 || ordinal >= seriesCount) {
        throw new IOException("a point of series " + ordinal + " of " + seriesCount);
      }
      long time = in.readZLong();
      double value = Double.longBitsToDouble(in.readLong());
      points.add(new MetricPoint(series[ordinal], time, value));
    }
    if (in.getPosition() != payload.length) {
      throw new IOException(
          "record has " + (payload.length - in.getPosition()) + " trailing bytes");
    }
    return points;
  }
}
