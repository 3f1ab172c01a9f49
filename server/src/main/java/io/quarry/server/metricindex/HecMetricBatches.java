package io.quarry.server.metricindex;

import io.quarry.codecs.metricstore.MetricBatch;
import io.quarry.codecs.metricstore.SeriesKey;
import io.quarry.server.hec.HecEnvelope;
import io.quarry.server.hec.HecException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The metric data points of one HEC request, a {@link MetricBatch} per metric index, with every
 * series found without building its key: an envelope's dimensions are looked up once (the series of
 * a host repeat in every envelope of it), then each of its metrics by the field's name — Jackson's
 * canonical instance, so the lookup hashes nothing new. The series an ingest thread has met stay in
 * a cache of its own across requests (at most {@link #CACHED_SERIES}, then it starts over), so a
 * {@link SeriesKey} is built once per thread and series, interned across threads, and the same
 * instance reaches the log (which keeps its encoded bytes) and the hot bucket, whose maps find it
 * by identity. No object per point.
 *
 * <p>An envelope is checked whole before any of its points is added: a bad one adds nothing, and
 * its error is what {@link HecMetricEnvelope} has always answered (HEC code 6 naming the field).
 */
public final class HecMetricBatches {
  /** Series an ingest thread keeps between requests before it starts its cache over. */
  static final int CACHED_SERIES = 50_000;

  private static final ThreadLocal<SeriesCache> CACHE = ThreadLocal.withInitial(SeriesCache::new);

  /** Series keys interned across ingest threads (at most {@link #INTERNED_SERIES}). */
  static final int INTERNED_SERIES = 200_000; // ~50 MB of keys at most

  private static final java.util.concurrent.ConcurrentHashMap<SeriesKey, SeriesKey> INTERNED =
      new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * The one instance of a key that every ingest thread uses, so that the log's and the hot bucket's
   * maps find it by identity instead of comparing its strings (each thread builds its own keys:
   * without this, a series met by two threads would be two instances).
   */
  private static SeriesKey intern(SeriesKey key) {
    if (INTERNED.size() > INTERNED_SERIES) {
      INTERNED.clear(); // a bound, not a correctness matter: equal keys still compare equal
    }
    SeriesKey earlier = INTERNED.putIfAbsent(key, key);
    return earlier != null ? earlier : key;
  }

  private final SeriesCache cache = CACHE.get();
  private final long request = cache.startRequest();
  private final Map<String, IndexBatch> byIndex = new LinkedHashMap<>();
  private IndexBatch last;

  // one envelope's checked contents, reused
  private String[] dimensionNames = new String[8];
  private String[] dimensionValues = new String[8];
  private int dimensions;
  private int[] metricFields = new int[128];
  private double[] metricValues = new double[128];
  private int metrics;

  /** The batches by index, in order of first appearance. */
  public Map<String, MetricBatch> batches() {
    Map<String, MetricBatch> batches = new LinkedHashMap<>();
    byIndex.forEach((index, batch) -> batches.put(index, batch.points));
    return batches;
  }

  public boolean isEmpty() {
    return byIndex.values().stream().allMatch(batch -> batch.points.isEmpty());
  }

  /**
   * Adds the points of a metric envelope ({@link HecMetricEnvelope#isMetric}) for {@code index}.
   *
   * @param number the envelope's position in the request, for error messages
   * @throws HecException code 6 naming the field when a value is not a number, a name is empty,
   *     {@code metric_name} comes without {@code _value} or a dimension is not a string
   */
  public void add(
      HecEnvelope envelope,
      String index,
      long timeMicros,
      String host,
      String source,
      String sourcetype,
      int number) {
    if (!envelope.hasFieldSlots()) {
      throw HecException.invalidFormat(
          number, "a metric event needs 'fields' with metric_name and _value");
    }
    dimensions = 0;
    metrics = 0;
    putDimension("host", host);
    putDimension("source", source);
    putDimension("sourcetype", sourcetype);
    String single = null;
    int singleValue = -1;
    for (int i = 0; i < envelope.fieldCount(); i++) {
      String name = envelope.fieldName(i);
      if (name.equals(HecMetricEnvelope.METRIC_NAME)) {
        single = HecMetricEnvelope.text(envelope, i, name, number);
      } else if (name.equals(HecMetricEnvelope.VALUE)) {
        singleValue = i;
      } else if (name.startsWith(HecMetricEnvelope.METRIC_NAME_PREFIX)) {
        if (HecMetricEnvelope.blankAfterPrefix(name)) {
          throw HecException.invalidFormat(number, "'" + name + "' names no metric");
        }
        addMetric(i, HecMetricEnvelope.number(envelope, i, name, number));
      } else if (name.isEmpty() || name.startsWith("_")) {
        throw HecException.invalidFormat(
            number, "metric dimension '" + name + "': underscore fields are reserved");
      } else {
        putDimension(name, HecMetricEnvelope.text(envelope, i, name, number));
      }
    }
    double singleNumber = 0;
    if (single != null) {
      if (singleValue < 0) {
        throw HecException.invalidFormat(
            number, "metric '" + single + "' has no _value in 'fields'");
      }
      if (single.isBlank()) {
        throw HecException.invalidFormat(number, "'metric_name' is empty");
      }
      singleNumber =
          HecMetricEnvelope.number(envelope, singleValue, HecMetricEnvelope.VALUE, number);
    } else if (singleValue >= 0) {
      throw HecException.invalidFormat(number, "'_value' without 'metric_name' in 'fields'");
    }
    if (metrics == 0 && single == null) {
      return;
    }
    IndexBatch batch = batch(index);
    Dimensions series = batch.dimensions.computeIfAbsent(sortedDimensions(), Dimensions::new);
    for (int m = 0; m < metrics; m++) {
      int position = metricFields[m];
      String field = envelope.fieldName(position);
      Slot slot = series.atPosition(position, field);
      if (slot == null) {
        slot = series.byField.get(field);
        if (slot == null) {
          slot =
              new Slot(series.key(field.substring(HecMetricEnvelope.METRIC_NAME_PREFIX.length())));
          series.byField.put(field, slot);
          cache.series++;
        }
        series.remember(position, field, slot);
      }
      batch.points.add(ordinal(slot, batch), timeMicros, metricValues[m]);
    }
    if (single != null) {
      Slot slot = series.byName.get(single);
      if (slot == null) {
        slot = new Slot(series.key(single));
        series.byName.put(single, slot);
        cache.series++;
      }
      batch.points.add(ordinal(slot, batch), timeMicros, singleNumber);
    }
  }

  /** The series' ordinal in this request's batch, added on its first point. */
  private int ordinal(Slot slot, IndexBatch batch) {
    if (slot.request != request) {
      slot.request = request;
      slot.ordinal = batch.points.addSeries(slot.key);
    }
    return slot.ordinal;
  }

  private void addMetric(int field, double value) {
    if (metrics == metricFields.length) {
      metricFields = Arrays.copyOf(metricFields, metrics * 2);
      metricValues = Arrays.copyOf(metricValues, metrics * 2);
    }
    metricFields[metrics] = field;
    metricValues[metrics] = value;
    metrics++;
  }

  /** As a map's put: a later value for the same name replaces the earlier one. */
  private void putDimension(String name, String value) {
    for (int d = 0; d < dimensions; d++) {
      if (dimensionNames[d].equals(name)) {
        dimensionValues[d] = value;
        return;
      }
    }
    if (dimensions == dimensionNames.length) {
      dimensionNames = Arrays.copyOf(dimensionNames, dimensions * 2);
      dimensionValues = Arrays.copyOf(dimensionValues, dimensions * 2);
    }
    dimensionNames[dimensions] = name;
    dimensionValues[dimensions] = value;
    dimensions++;
  }

  /** The envelope's dimensions sorted by name (an insertion sort: there are a handful). */
  private DimensionsKey sortedDimensions() {
    String[] names = Arrays.copyOf(dimensionNames, dimensions);
    String[] values = Arrays.copyOf(dimensionValues, dimensions);
    for (int i = 1; i < dimensions; i++) {
      String name = names[i];
      String value = values[i];
      int j = i - 1;
      while (j >= 0 && names[j].compareTo(name) > 0) {
        names[j + 1] = names[j];
        values[j + 1] = values[j];
        j--;
      }
      names[j + 1] = name;
      values[j + 1] = value;
    }
    return new DimensionsKey(names, values);
  }

  private IndexBatch batch(String index) {
    if (last != null && last.index.equals(index)) {
      return last;
    }
    last =
        byIndex.computeIfAbsent(
            index, i -> new IndexBatch(i, cache.byIndex.computeIfAbsent(i, x -> new HashMap<>())));
    return last;
  }

  /** One index's points in this request, and the dimensions its ingest thread has met. */
  private static final class IndexBatch {
    final String index;
    final MetricBatch points = new MetricBatch(4096);
    final Map<DimensionsKey, Dimensions> dimensions;

    IndexBatch(String index, Map<DimensionsKey, Dimensions> dimensions) {
      this.index = index;
      this.dimensions = dimensions;
    }
  }

  /**
   * One ingest thread's series by index and dimensions; each request takes a new number, which
   * tells a {@link Slot} whether it has its ordinal in the current request's batch yet.
   */
  private static final class SeriesCache {
    final Map<String, Map<DimensionsKey, Dimensions>> byIndex = new HashMap<>();
    long requests;
    int series;

    long startRequest() {
      if (series > CACHED_SERIES) {
        byIndex.clear();
        series = 0;
      }
      return ++requests;
    }
  }

  /** A series: its key, and its ordinal in the batch of request number {@code request}. */
  private static final class Slot {
    final SeriesKey key;
    long request;
    int ordinal;

    Slot(SeriesKey key) {
      this.key = key;
    }
  }

  /** Sorted dimension names and values, compared by content. */
  private static final class DimensionsKey {
    final String[] names;
    final String[] values;
    final int hash;

    DimensionsKey(String[] names, String[] values) {
      this.names = names;
      this.values = values;
      this.hash = 31 * Arrays.hashCode(names) + Arrays.hashCode(values);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof DimensionsKey key
          && key.hash == hash
          && Arrays.equals(key.names, names)
          && Arrays.equals(key.values, values);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  /**
   * The series of one set of dimensions, by field name or metric name — and by the field's position
   * in the envelope: a sender writes a host's metrics in the same order every time, so the name at
   * a position is the same instance as last time and no hashing is needed.
   */
  private static final class Dimensions {
    final DimensionsKey dimensions;
    final Map<String, Slot> byField = new HashMap<>();
    final Map<String, Slot> byName = new HashMap<>();
    private String[] positionFields = new String[0];
    private Slot[] positionSlots = new Slot[0];
    private SeriesKey shared;

    /** The slot last seen at {@code position} if the field there is {@code field} again. */
    Slot atPosition(int position, String field) {
      return position < positionFields.length && positionFields[position] == field
          ? positionSlots[position]
          : null;
    }

    void remember(int position, String field, Slot slot) {
      if (position >= positionFields.length) {
        int capacity = Math.max(position + 1, positionFields.length * 2);
        positionFields = Arrays.copyOf(positionFields, capacity);
        positionSlots = Arrays.copyOf(positionSlots, capacity);
      }
      positionFields[position] = field;
      positionSlots[position] = slot;
    }

    Dimensions(DimensionsKey dimensions) {
      this.dimensions = dimensions;
    }

    SeriesKey key(String metric) {
      SeriesKey key;
      if (shared == null) {
        Map<String, String> map = new TreeMap<>();
        for (int d = 0; d < dimensions.names.length; d++) {
          map.put(dimensions.names[d], dimensions.values[d]);
        }
        key = SeriesKey.of(metric, map);
        shared = key;
      } else {
        key = SeriesKey.withDimensionsOf(metric, shared);
      }
      return intern(key);
    }
  }
}
