package io.quarry.codecs.metricstore;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The bucket taking new points, in memory (the log holds them durably): the series dictionary
 * (series by key, dense ids in order of first arrival, posting lists) and each series' chunks. Not
 * thread-safe: its {@link MetricIndexStore} serializes access.
 */
final class HotBucket {
  private final int chunkPoints;
  private final long createdMillis;
  private final Map<SeriesKey, HotSeries> byKey = new HashMap<>();
  private final Object memoToken = new Object(); // keys' memos of this bucket (SeriesKey.Memo)
  private final List<HotSeries> series = new ArrayList<>();
  private final Map<String, IntList> postings = new HashMap<>();
  private long minTime = Long.MAX_VALUE;
  private long maxTime = Long.MIN_VALUE;
  private long points;

  HotBucket(int chunkPoints, long createdMillis) {
    this.chunkPoints = chunkPoints;
    this.createdMillis = createdMillis;
  }

  /** Adds a batch: each of its series is looked up once, then its points go straight in. */
  void add(MetricBatch batch) {
    HotSeries[] targets = new HotSeries[batch.seriesCount()];
    for (int s = 0; s < targets.length; s++) {
      targets[s] = series(batch.series(s));
    }
    long min = minTime;
    long max = maxTime;
    for (int i = 0; i < batch.size(); i++) {
      long time = batch.time(i);
      targets[batch.ordinal(i)].add(time, batch.value(i));
      min = Math.min(min, time);
      max = Math.max(max, time);
    }
    minTime = min;
    maxTime = max;
    points += batch.size();
  }

  void add(MetricPoint point) {
    series(point.series()).add(point.timeMicros(), point.value());
    minTime = Math.min(minTime, point.timeMicros());
    maxTime = Math.max(maxTime, point.timeMicros());
    points++;
  }

  /** The hot series of {@code key}, created (and posted) on its first point. */
  private HotSeries series(SeriesKey key) {
    SeriesKey.Memo memo = key.hotSeries;
    if (memo != null && memo.owner() == memoToken) {
      return series.get(memo.value());
    }
    HotSeries target = lookUp(key);
    key.hotSeries = new SeriesKey.Memo(memoToken, target.id);
    return target;
  }

  private HotSeries lookUp(SeriesKey key) {
    HotSeries target = byKey.get(key);
    if (target == null) {
      target = new HotSeries(series.size(), key, chunkPoints);
      byKey.put(key, target);
      series.add(target);
      post(Postings.term(Postings.METRIC_NAME, key.metricName()), target.id);
      for (int d = 0; d < key.size(); d++) {
        post(Postings.term(key.name(d), key.value(d)), target.id);
      }
    }
    return target;
  }

  private void post(String term, int id) {
    postings.computeIfAbsent(term, t -> new IntList()).add(id);
  }

  boolean isEmpty() {
    return points == 0;
  }

  long points() {
    return points;
  }

  long minTime() {
    return minTime;
  }

  long maxTime() {
    return maxTime;
  }

  long createdMillis() {
    return createdMillis;
  }

  List<HotSeries> series() {
    return series;
  }

  long ramBytes() {
    long bytes = 0;
    for (HotSeries s : series) {
      bytes += s.ramBytes();
    }
    return bytes;
  }

  /** A selected series and copies of its chunks, readable without the store's lock. */
  record Selected(SeriesKey key, List<Chunk> chunks) {}

  /**
   * The series {@code selector} accepts that have points in {@code [from, to)}, with their chunks.
   *
   * @param refused counts, at [0], the series proposed by postings that the test refused
   */
  List<Selected> select(SeriesSelector selector, long from, long to, long[] refused) {
    List<Selected> selected = new ArrayList<>();
    for (int id : candidates(selector)) {
      HotSeries s = series.get(id);
      if (s.maxTime() < from || s.minTime() >= to) {
        continue;
      }
      if (!selector.test().test(s.key)) {
        refused[0]++;
        continue;
      }
      selected.add(new Selected(s.key, s.chunks(false)));
    }
    return selected;
  }

  private int[] candidates(SeriesSelector selector) {
    if (selector.requiredTerms().isEmpty()) {
      int[] all = new int[series.size()];
      Arrays.setAll(all, i -> i);
      return all;
    }
    List<int[]> lists = new ArrayList<>();
    for (String term : selector.requiredTerms()) {
      IntList ids = postings.get(term);
      if (ids == null) {
        return new int[0];
      }
      lists.add(ids.toArray());
    }
    return Postings.intersect(lists);
  }

  /** A growable list of ints, ascending here because ids are given in order. */
  static final class IntList {
    private int[] values = new int[4];
    private int size;

    void add(int value) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = value;
    }

    int[] toArray() {
      return Arrays.copyOf(values, size);
    }
  }
}
