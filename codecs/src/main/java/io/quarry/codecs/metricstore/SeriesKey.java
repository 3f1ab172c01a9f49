package io.quarry.codecs.metricstore;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * The identity of a time series: a metric name and its dimensions, sorted by name (a dimension
 * appears once). Two points with equal keys belong to the same series.
 */
public final class SeriesKey {
  private final String metricName;
  private final String[] names;
  private final String[] values;
  private final int hash;
  private byte[] encoded; // the log's bytes of this key, made on first use (a benign race)

  /**
   * What an index last found for this key — its series number in the hot bucket, its number in the
   * log file being written — with the token of the dictionary that answered ({@link Memo#owner}),
   * so a writer that reuses its key instances (HEC interns them) skips the lookup. One reference,
   * written whole: a key shared by indexes that race on it at worst misses, never reads another
   * index's answer.
   *
   * <p>The memo holds a number and a token (a bare object each dictionary owns), never the
   * dictionary or the series: a key instance the dictionary does not hold itself (an equal key,
   * interned again after the intern table was cleared) keeps nothing of a rolled bucket or an old
   * log file alive, and a dictionary that takes numbers back (a failed log append) takes a new
   * token, so no key reads a number that was given back.
   */
  volatile Memo hotSeries;

  volatile Memo logNumber;

  /** A number for a key and the token of the dictionary it came from. */
  record Memo(Object owner, int value) {}

  private SeriesKey(String metricName, String[] names, String[] values) {
    this.metricName = metricName;
    this.names = names;
    this.values = values;
    int h = metricName.hashCode();
    for (int i = 0; i < names.length; i++) {
      h = 31 * (31 * h + names[i].hashCode()) + values[i].hashCode();
    }
    this.hash = h;
  }

  /**
   * A key from a metric name and dimensions in any order.
   *
   * @throws IllegalArgumentException for an empty metric name or dimension name
   */
  public static SeriesKey of(String metricName, Map<String, String> dimensions) {
    requireNonNull(metricName, "metricName is null");
    if (metricName.isEmpty()) {
      throw new IllegalArgumentException("a metric name cannot be empty");
    }
    TreeMap<String, String> sorted = new TreeMap<>(dimensions);
    String[] names = new String[sorted.size()];
    String[] values = new String[sorted.size()];
    int i = 0;
    for (Map.Entry<String, String> entry : sorted.entrySet()) {
      if (entry.getKey().isEmpty()) {
        throw new IllegalArgumentException("a dimension name cannot be empty");
      }
      names[i] = entry.getKey();
      values[i] = requireNonNull(entry.getValue(), "dimension value is null");
      i++;
    }
    return new SeriesKey(metricName, names, values);
  }

  /**
   * The key of metric {@code metricName} with the dimensions of {@code dimensions}, sharing them
   * (no copy): the points of one multi-metric envelope build their keys this way.
   */
  public static SeriesKey withDimensionsOf(String metricName, SeriesKey dimensions) {
    requireNonNull(metricName, "metricName is null");
    if (metricName.isEmpty()) {
      throw new IllegalArgumentException("a metric name cannot be empty");
    }
    return new SeriesKey(metricName, dimensions.names, dimensions.values);
  }

  /** A key from names already sorted and distinct (as read back from a file or the log). */
  static SeriesKey ofSorted(String metricName, String[] names, String[] values) {
    for (int i = 1; i < names.length; i++) {
      if (names[i - 1].compareTo(names[i]) >= 0) {
        throw new IllegalArgumentException("dimension names not sorted: " + Arrays.toString(names));
      }
    }
    return new SeriesKey(metricName, names, values);
  }

  /**
   * The key as {@link MetricLogCodec} writes it (metric name, dimension count, names and values as
   * Lucene strings), encoded once per key: a writer that reuses its keys pays for it once.
   */
  byte[] encoded() {
    byte[] bytes = encoded;
    if (bytes == null) {
      org.apache.lucene.store.ByteBuffersDataOutput out =
          new org.apache.lucene.store.ByteBuffersDataOutput();
      try {
        MetricLogCodec.writeSeries(out, this);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException("writing to memory", e);
      }
      bytes = out.toArrayCopy();
      encoded = bytes;
    }
    return bytes;
  }

  public String metricName() {
    return metricName;
  }

  /** Number of dimensions. */
  public int size() {
    return names.length;
  }

  public String name(int i) {
    return names[i];
  }

  public String value(int i) {
    return values[i];
  }

  /** The value of dimension {@code name}, or null when the series has no such dimension. */
  public String dimension(String name) {
    int at = Arrays.binarySearch(names, name);
    return at >= 0 ? values[at] : null;
  }

  /** The dimensions, sorted by name. */
  public Map<String, String> dimensions() {
    Map<String, String> map = new TreeMap<>();
    for (int i = 0; i < names.length; i++) {
      map.put(names[i], values[i]);
    }
    return map;
  }

  @Override
  public boolean equals(Object other) {
    return other == this
        || other instanceof SeriesKey key
            && key.hash == hash
            && key.metricName.equals(metricName)
            && Arrays.equals(key.names, names)
            && Arrays.equals(key.values, values);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder(metricName).append('{');
    for (int i = 0; i < names.length; i++) {
      text.append(i == 0 ? "" : ",").append(names[i]).append('=').append(values[i]);
    }
    return text.append('}').toString();
  }
}
