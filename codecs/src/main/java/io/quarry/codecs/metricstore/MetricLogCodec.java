package io.quarry.codecs.metricstore;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.lucene.store.ByteArrayDataInput;
import org.apache.lucene.store.ByteBuffersDataOutput;

/**
 * Serializes a batch of points for {@link MetricLog}. Version 2 (written now) keeps a dictionary of
 * series per log file: a series' key is written once in the file, in the first record that has it,
 * and later records name it by its number in the file — a scrape of one point per series costs no
 * key per point:
 *
 * <pre>
 * Payload    := SeriesCount (vint), SeriesRef^SeriesCount, Points
 * SeriesRef  := 0 (vint), Series   -- new: the file's next number
 *             | FileNumber + 1 (vint) -- defined by an earlier record of the file
 * Points     := PointCount (vint), Point^PointCount
 * Point      := SeriesOrdinal (vint: into this record's SeriesRefs), Time (zlong, epoch µs),
 *               ValueBits (long, Lucene's little-endian: IEEE 754 bits, raw)
 * Series     := MetricName (string), DimCount (vint), &lt;Name (string), Value (string)&gt;^DimCount
 *               -- names sorted and distinct
 * </pre>
 *
 * Version 1 (still read) had no dictionary: {@code Payload := SeriesCount (vint),
 * Series^SeriesCount, Points}. Strings are Lucene's ({@code vint} length, UTF-8).
 *
 * <p>The points are encoded by the writing thread ({@link #encodePoints}, the costly part, outside
 * any lock); the series references by the log in append order ({@link #seriesRefs}), since a
 * reference depends on the records before it in the file.
 */
final class MetricLogCodec {
  private MetricLogCodec() {}

  /**
   * A batch's {@code Points}: the bytes Lucene's {@code DataOutput} would write, written straight
   * into an array.
   *
   * @return the bytes from 0 to the limit
   */
  static ByteBuffer encodePoints(MetricBatch batch) {
    // at most 5 bytes per vint, 10 per zlong, 8 per value
    byte[] out = new byte[5 + 23 * batch.size()];
    int at = writeVInt(out, 0, batch.size());
    for (int i = 0; i < batch.size(); i++) {
      at = writeVInt(out, at, batch.ordinal(i));
      long time = batch.time(i);
      at = writeVLong(out, at, (time >> 63) ^ (time << 1)); // zig-zag, as writeZLong
      LONG_LE.set(out, at, Double.doubleToRawLongBits(batch.value(i)));
      at += Long.BYTES;
    }
    return ByteBuffer.wrap(out, 0, at);
  }

  /**
   * A batch's {@code SeriesCount, SeriesRef*} against the file's dictionary, which it extends with
   * the series new to the file (numbered in order; each also added to {@code added}, so that a
   * failed append can take them back).
   */
  static ByteBuffer seriesRefs(
      MetricBatch batch, Map<SeriesKey, Integer> fileNumbers, List<SeriesKey> added) {
    return seriesRefs(batch, fileNumbers, fileNumbers, added);
  }

  /** As above, the keys' memos of the file's numbers tagged with {@code token}. */
  static ByteBuffer seriesRefs(
      MetricBatch batch, Map<SeriesKey, Integer> fileNumbers, Object token, List<SeriesKey> added) {
    int room = 5;
    for (int s = 0; s < batch.seriesCount(); s++) {
      room += 5;
      if (!fileNumbers.containsKey(batch.series(s))) {
        room += batch.series(s).encoded().length;
      }
    }
    byte[] out = new byte[room];
    int at = writeVInt(out, 0, batch.seriesCount());
    for (int s = 0; s < batch.seriesCount(); s++) {
      SeriesKey key = batch.series(s);
      Integer number = number(key, fileNumbers, token);
      if (number != null) {
        at = writeVInt(out, at, number + 1);
      } else {
        out[at++] = 0;
        byte[] encoded = key.encoded();
        System.arraycopy(encoded, 0, out, at, encoded.length);
        at += encoded.length;
        fileNumbers.put(key, fileNumbers.size());
        added.add(key);
      }
    }
    return ByteBuffer.wrap(out, 0, at);
  }

  /** The key's number in the file whose dictionary is {@code fileNumbers}, or null. */
  private static Integer number(SeriesKey key, Map<SeriesKey, Integer> fileNumbers, Object token) {
    SeriesKey.Memo memo = key.logNumber;
    if (memo != null && memo.owner() == token) {
      return memo.value();
    }
    Integer number = fileNumbers.get(key);
    if (number != null) {
      key.logNumber = new SeriesKey.Memo(token, number);
    }
    return number;
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

  /** {@code Points} as Lucene's {@code DataOutput} writes them: the reference of the tests. */
  static byte[] encodePointsWithDataOutput(MetricBatch batch) throws IOException {
    ByteBuffersDataOutput out = new ByteBuffersDataOutput();
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

  /**
   * Decodes a record's payload.
   *
   * @param version the file's version: 1 (series in every record) or 2 (the file's dictionary)
   * @param fileSeries version 2: the file's series by number, extended by this record's new ones
   */
  static MetricBatch decode(byte[] payload, int version, List<SeriesKey> fileSeries)
      throws IOException {
    ByteArrayDataInput in = new ByteArrayDataInput(payload);
    int seriesCount = in.readVInt();
    if (seriesCount < 0 || seriesCount > payload.length) {
      throw new IOException("a record of " + seriesCount + " series");
    }
    SeriesKey[] series = new SeriesKey[seriesCount];
    for (int i = 0; i < seriesCount; i++) {
      if (version == 1) {
        series[i] = readSeries(in);
        continue;
      }
      int reference = in.readVInt();
      if (reference == 0) {
        series[i] = readSeries(in);
        fileSeries.add(series[i]);
      } else if (reference > 0 && reference <= fileSeries.size()) {
        series[i] = fileSeries.get(reference - 1);
      } else {
        throw new IOException(
            "a reference to series " + (reference - 1) + " of " + fileSeries.size());
      }
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
