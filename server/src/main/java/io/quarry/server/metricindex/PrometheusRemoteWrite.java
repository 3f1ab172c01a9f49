package io.quarry.server.metricindex;

import io.quarry.codecs.metricstore.MetricPoint;
import io.quarry.codecs.metricstore.SeriesKey;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.xerial.snappy.Snappy;

/**
 * A Prometheus remote-write 1.0 request body — a snappy-compressed (block format, not framed)
 * protobuf {@code prometheus.WriteRequest} — as metric points, decoded by hand: the message is
 * small and this is the only protobuf Quarry reads.
 *
 * <pre>
 * WriteRequest { repeated TimeSeries timeseries = 1; repeated MetricMetadata metadata = 3; }
 * TimeSeries   { repeated Label labels = 1; repeated Sample samples = 2;
 *                repeated Exemplar exemplars = 3; repeated Histogram histograms = 4; }
 * Label        { string name = 1; string value = 2; }
 * Sample       { double value = 1; int64 timestamp = 2; }   -- milliseconds since the epoch
 * </pre>
 *
 * A series' {@code __name__} label is its metric name (required); every other label with a
 * non-empty value is a dimension (an empty value is no label, as in Prometheus), and {@code extra}
 * adds dimensions a series lacks. Metadata, exemplars and native histograms are skipped, as is any
 * field this reader does not know (protobuf's rule); a staleness marker (Prometheus' special NaN)
 * is not a point and is skipped too. Anything malformed is a {@link DecodeException} naming it.
 */
final class PrometheusRemoteWrite {
  /**
   * The largest body decoded: remote-write batches are a few MB (Prometheus sends ≤ 2,000 samples).
   */
  static final int MAX_DECODED_BYTES = 64 << 20;

  /** Prometheus' staleness marker: a NaN with this bit pattern (value.StaleNaN). */
  static final long STALE_NAN_BITS = 0x7ff0000000000002L;

  private static final String NAME_LABEL = "__name__";

  /** A body that is not a remote-write request, with what is wrong. */
  static final class DecodeException extends Exception {
    DecodeException(String message) {
      super(message);
    }
  }

  private PrometheusRemoteWrite() {}

  /** The points of a snappy-compressed {@code WriteRequest}. */
  static List<MetricPoint> decode(byte[] body, Map<String, String> extra) throws DecodeException {
    return parse(uncompress(body, MAX_DECODED_BYTES), extra);
  }

  /** The body uncompressed, refused before decompressing when it would exceed {@code max}. */
  static byte[] uncompress(byte[] body, int max) throws DecodeException {
    int length;
    try {
      length = Snappy.uncompressedLength(body);
    } catch (IOException | RuntimeException e) {
      throw new DecodeException("the body is not snappy-compressed (block format): " + e);
    }
    if (length < 0 || length > max) {
      throw new DecodeException(
          "the body decompresses to "
              + Integer.toUnsignedString(length)
              + " bytes, more than "
              + max
              + "; send smaller batches (queue_config max_samples_per_send)");
    }
    try {
      return Snappy.uncompress(body);
    } catch (IOException | RuntimeException e) {
      throw new DecodeException("the body's snappy data is damaged: " + e.getMessage());
    }
  }

  /** The points of an uncompressed {@code WriteRequest}. */
  static List<MetricPoint> parse(byte[] message, Map<String, String> extra) throws DecodeException {
    List<MetricPoint> points = new ArrayList<>();
    Wire request = new Wire(message, 0, message.length);
    int series = 0;
    while (request.more()) {
      int tag = request.tag();
      if (tag == (1 << 3 | Wire.LENGTH_DELIMITED)) {
        series++;
        timeSeries(request.message(), series, extra, points);
      } else {
        request.skip(tag);
      }
    }
    return points;
  }

  private static void timeSeries(
      Wire in, int number, Map<String, String> extra, List<MetricPoint> points)
      throws DecodeException {
    Map<String, String> labels = new TreeMap<>();
    List<long[]> samples = new ArrayList<>(); // {timestamp ms, value bits}
    while (in.more()) {
      int tag = in.tag();
      if (tag == (1 << 3 | Wire.LENGTH_DELIMITED)) {
        Wire label = in.message();
        String name = "";
        String value = "";
        while (label.more()) {
          int field = label.tag();
          if (field == (1 << 3 | Wire.LENGTH_DELIMITED)) {
            name = label.string();
          } else if (field == (2 << 3 | Wire.LENGTH_DELIMITED)) {
            value = label.string();
          } else {
            label.skip(field);
          }
        }
        if (name.isEmpty()) {
          throw new DecodeException("time series " + number + ": a label without a name");
        }
        if (labels.containsKey(name)) {
          throw new DecodeException("time series " + number + ": label " + name + " given twice");
        }
        labels.put(name, value);
      } else if (tag == (2 << 3 | Wire.LENGTH_DELIMITED)) {
        Wire sample = in.message();
        long timestamp = 0;
        long bits = 0; // proto3 defaults: 0.0 at time 0
        while (sample.more()) {
          int field = sample.tag();
          if (field == (1 << 3 | Wire.FIXED64)) {
            bits = sample.fixed64();
          } else if (field == (2 << 3 | Wire.VARINT)) {
            timestamp = sample.varint();
          } else {
            sample.skip(field);
          }
        }
        samples.add(new long[] {timestamp, bits});
      } else {
        in.skip(tag); // exemplars, native histograms
      }
    }
    String metric = labels.remove(NAME_LABEL);
    if (metric == null || metric.isEmpty()) {
      throw new DecodeException(
          "time series " + number + ": no " + NAME_LABEL + " label (the metric name)");
    }
    labels.values().removeIf(String::isEmpty);
    extra.forEach(labels::putIfAbsent);
    SeriesKey key = SeriesKey.of(metric, labels);
    for (long[] sample : samples) {
      if (sample[1] == STALE_NAN_BITS) {
        continue;
      }
      long micros;
      try {
        micros = Math.multiplyExact(sample[0], 1_000L);
      } catch (ArithmeticException e) {
        throw new DecodeException(
            "time series " + number + ": timestamp " + sample[0] + " ms is out of range");
      }
      points.add(new MetricPoint(key, micros, Double.longBitsToDouble(sample[1])));
    }
  }

  /** Protobuf's wire format over a slice of bytes. */
  private static final class Wire {
    static final int VARINT = 0;
    static final int FIXED64 = 1;
    static final int LENGTH_DELIMITED = 2;
    static final int FIXED32 = 5;

    private final byte[] bytes;
    private int at;
    private final int end;

    Wire(byte[] bytes, int from, int end) {
      this.bytes = bytes;
      this.at = from;
      this.end = end;
    }

    boolean more() {
      return at < end;
    }

    int tag() throws DecodeException {
      long tag = varint();
      if (tag >>> 3 == 0 || tag > Integer.MAX_VALUE) {
        throw new DecodeException("a field tag of " + tag + " at byte " + at);
      }
      return (int) tag;
    }

    long varint() throws DecodeException {
      long value = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (at >= end) {
          throw new DecodeException("the message ends inside a varint");
        }
        byte b = bytes[at++];
        value |= (long) (b & 0x7f) << shift;
        if (b >= 0) {
          return value;
        }
      }
      throw new DecodeException("a varint longer than 10 bytes at byte " + at);
    }

    long fixed64() throws DecodeException {
      need(8);
      long value = ByteBuffer.wrap(bytes, at, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
      at += 8;
      return value;
    }

    /** A length-delimited field's bytes, as a reader of their own. */
    Wire message() throws DecodeException {
      int length = length();
      Wire inner = new Wire(bytes, at, at + length);
      at += length;
      return inner;
    }

    String string() throws DecodeException {
      int length = length();
      try {
        String text =
            StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes, at, length))
                .toString();
        at += length;
        return text;
      } catch (CharacterCodingException e) {
        throw new DecodeException("a string that is not UTF-8 at byte " + at);
      }
    }

    private int length() throws DecodeException {
      long length = varint();
      if (length < 0 || length > end - at) {
        throw new DecodeException(
            "a field of " + length + " bytes where " + (end - at) + " are left");
      }
      return (int) length;
    }

    private void need(int count) throws DecodeException {
      if (end - at < count) {
        throw new DecodeException("the message ends inside a field");
      }
    }

    /** Skips a field this reader does not use. */
    void skip(int tag) throws DecodeException {
      switch (tag & 7) {
        case VARINT -> varint();
        case FIXED64 -> {
          need(8);
          at += 8;
        }
        case LENGTH_DELIMITED -> {
          int length = length(); // (not `at += length()`: that adds to `at` as it was before)
          at += length;
        }
        case FIXED32 -> {
          need(4);
          at += 4;
        }
        default ->
            throw new DecodeException(
                "wire type " + (tag & 7) + " (field " + (tag >>> 3) + ") is not protobuf 3's");
      }
    }
  }
}
