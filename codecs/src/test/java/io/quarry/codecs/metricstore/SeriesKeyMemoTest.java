package io.quarry.codecs.metricstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.ref.WeakReference;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A key's memo of a hot bucket ({@link SeriesKey#hotSeries}) must not keep the bucket alive: an
 * equal key instance the bucket does not hold itself (HEC's intern table, cleared at its bound,
 * makes new ones) outlives the bucket's roll, and a memo holding the bucket or its series would
 * keep a whole rolled bucket's chunks in memory. And the memo answers only for its own bucket.
 */
class SeriesKeyMemoTest {
  @Test
  void anEqualKeyInstanceKeepsNothingOfARolledBucket() throws Exception {
    SeriesKey held = SeriesKey.of("cpu", Map.of("host", "a"));
    SeriesKey other = SeriesKey.of("cpu", Map.of("host", "a")); // equal, not the same
    WeakReference<HotBucket> bucket = fill(held, other);
    assertThat(other.hotSeries).as("the second instance memoized its series").isNotNull();
    for (int i = 0; i < 50 && bucket.get() != null; i++) {
      System.gc();
      Thread.sleep(20);
    }
    assertThat(bucket.get()).as("the bucket, once dropped, is collected").isNull();

    // a memo answers only in its own bucket: the next bucket finds (and numbers) the key afresh
    HotBucket next = new HotBucket(1024, 0);
    next.add(MetricBatch.of(List.of(new MetricPoint(SeriesKey.of("mem", Map.of()), 1, 1))));
    next.add(MetricBatch.of(List.of(new MetricPoint(other, 2, 2))));
    assertThat(next.series()).hasSize(2);
    assertThat(next.series().get(1).key).isEqualTo(other);
    assertThat(next.series().get(1).minTime()).isEqualTo(2);
  }

  private static WeakReference<HotBucket> fill(SeriesKey held, SeriesKey other) {
    HotBucket bucket = new HotBucket(1024, 0);
    bucket.add(MetricBatch.of(List.of(new MetricPoint(held, 1_000_000, 1.0))));
    bucket.add(MetricBatch.of(List.of(new MetricPoint(other, 2_000_000, 2.0))));
    assertThat(bucket.series()).hasSize(1);
    assertThat(bucket.points()).isEqualTo(2);
    return new WeakReference<>(bucket);
  }
}
