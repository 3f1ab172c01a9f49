package io.quarry.codecs.metricstore;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The bucket taking new points, in memory (the log holds them durably): the series dictionary
 * (series by key, dense ids in order of first arrival, posting lists) and each series' chunks.
 *
 * <p><b>Threads.</b> The dictionary and the bucket's counters are its {@link MetricIndexStore}'s to
 * guard (under the index's lock, in log order: {@link #resolve}). The series' chunks are guarded by
 * {@link #STRIPES} stripe locks (series {@code id % STRIPES}): a batch encodes its points stripe by
 * stripe, taking stripe {@code k + 1} before it lets go of {@code k} and stripe 0 while the index's
 * lock is still held ({@link #startChain}, {@link #addChained}). So batches follow one another
 * through the stripes in log order — the same point of a series at the same instant is decided in
 * memory as the log's replay decides it — while the chunk encoding, the costly part, runs outside
 * the index's lock, two batches at once on different stripes. Whoever reads the series' chunks
 * takes every stripe in order ({@link #lockAll}), after the batches ahead of it.
 */
final class HotBucket {
  /** Stripes of series, each with its lock. */
  static final int STRIPES = 8;

  private final java.util.concurrent.locks.ReentrantLock[] stripes =
      new java.util.concurrent.locks.ReentrantLock[STRIPES];

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
    for (int s = 0; s < STRIPES; s++) {
      stripes[s] = new java.util.concurrent.locks.ReentrantLock();
    }
  }

  /**
   * Adds a batch in one go, for a single thread (the log's replay; tests): each of its series is
   * looked up once, then its points go straight in.
   */
  void add(MetricBatch batch) {
    HotSeries[] targets = resolve(batch);
    startChain();
    addChained(batch, targets);
  }

  /**
   * A batch's series in this bucket (created and posted on their first point), and the bucket's
   * counters moved on by its points: under the index's lock, in log order.
   */
  HotSeries[] resolve(MetricBatch batch) {
    HotSeries[] targets = new HotSeries[batch.seriesCount()];
    for (int s = 0; s < targets.length; s++) {
      targets[s] = series(batch.series(s));
    }
    long min = minTime;
    long max = maxTime;
    for (int i = 0; i < batch.size(); i++) {
      long time = batch.time(i);
      min = Math.min(min, time);
      max = Math.max(max, time);
    }
    minTime = min;
    maxTime = max;
    points += batch.size();
    return targets;
  }

  /** Takes stripe 0 for the batch just resolved: still under the index's lock, in log order. */
  void startChain() {
    stripes[0].lock();
  }

  /**
   * Encodes a resolved batch's points into its series' chunks, stripe by stripe; the caller holds
   * stripe 0 ({@link #startChain}). Every stripe is let go when it returns, also on a failure.
   */
  void addChained(MetricBatch batch, HotSeries[] targets) {
    int held = 0;
    try {
      // the batch's points by stripe (a counting sort of their positions)
      int[] start = new int[STRIPES + 1];
      for (int i = 0; i < batch.size(); i++) {
        start[targets[batch.ordinal(i)].id % STRIPES + 1]++;
      }
      for (int s = 0; s < STRIPES; s++) {
        start[s + 1] += start[s];
      }
      int[] next = java.util.Arrays.copyOf(start, STRIPES);
      int[] order = new int[batch.size()];
      for (int i = 0; i < batch.size(); i++) {
        order[next[targets[batch.ordinal(i)].id % STRIPES]++] = i;
      }
      for (int s = 0; s < STRIPES; s++) {
        if (s > 0) {
          stripes[s].lock();
          stripes[s - 1].unlock();
          held = s;
        }
        for (int k = start[s]; k < start[s + 1]; k++) {
          int i = order[k];
          targets[batch.ordinal(i)].add(batch.time(i), batch.value(i));
        }
      }
    } finally {
      stripes[held].unlock();
    }
  }

  /**
   * Takes every stripe, in order, after the batches ahead: the series' chunks then stand still
   * until {@link #unlockAll}.
   */
  void lockAll() {
    for (java.util.concurrent.locks.ReentrantLock stripe : stripes) {
      stripe.lock();
    }
  }

  void unlockAll() {
    for (int s = STRIPES - 1; s >= 0; s--) {
      stripes[s].unlock();
    }
  }

  /** Adds one point, for a single thread. */
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
   * The series {@code selector} accepts that have points in {@code [from, to)}, with their chunks;
   * takes every stripe ({@link #lockAll}) while it reads them.
   *
   * @param refused counts, at [0], the series proposed by postings that the test refused
   */
  List<Selected> select(SeriesSelector selector, long from, long to, long[] refused) {
    lockAll();
    try {
      return selectLocked(selector, from, to, refused);
    } finally {
      unlockAll();
    }
  }

  private List<Selected> selectLocked(SeriesSelector selector, long from, long to, long[] refused) {
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
