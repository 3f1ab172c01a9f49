package io.quarry.codecs.metricstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Batches encode their points outside the index's lock, stripe by stripe ({@link HotBucket}); they
 * must still land in memory in the log's order. Four writers send the same 200 series at the same
 * instants with their own values, at once, with searches reading meanwhile: for every series and
 * instant the value a search sees after they finish (the last batch to reach the log wins) is the
 * value the log's replay gives after a restart — and a value some writer sent.
 */
class MetricIngestOrderTest {
  @TempDir Path data;

  private static Map<String, TreeMap<Long, Double>> read(MetricIndexStore store) throws Exception {
    Map<String, TreeMap<Long, Double>> seen = new TreeMap<>();
    store.scan(
        SeriesSelector.ALL,
        Long.MIN_VALUE,
        Long.MAX_VALUE,
        key -> {
          TreeMap<Long, Double> points = seen.computeIfAbsent(key.toString(), k -> new TreeMap<>());
          return (time, value) -> {
            Double before = points.put(time, value);
            assertThat(before).as("%s at %d seen once", key, time).isNull();
          };
        });
    return seen;
  }

  @Test
  void concurrentWritersOfTheSameInstantsAgreeWithTheReplay() throws Exception {
    int writers = 4;
    int rounds = 60;
    List<SeriesKey> keys = new ArrayList<>();
    for (int s = 0; s < 200; s++) {
      keys.add(SeriesKey.of("m", Map.of("s", Integer.toString(s))));
    }
    Map<String, TreeMap<Long, Double>> inMemory;
    try (MetricIndexStore store =
        new MetricIndexStore(
            "m",
            data.resolve("m"),
            MetricIndexOptions.DEFAULTS.withMaxBucketPoints(Long.MAX_VALUE),
            Clock.systemUTC())) {
      ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        threads.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      try {
                        start.await();
                        for (int r = 0; r < rounds; r++) {
                          List<MetricPoint> points = new ArrayList<>();
                          for (int step = 0; step < 5; step++) {
                            long time = (r * 5L + step) * 1_000_000L; // every writer: same times
                            for (SeriesKey key : keys) {
                              points.add(new MetricPoint(key, time, writer * 1000.0 + r));
                            }
                          }
                          store.add(points);
                        }
                      } catch (Throwable e) {
                        failures.add(e);
                      }
                    }));
      }
      Thread reader =
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      start.await();
                      while (threads.stream().anyMatch(Thread::isAlive)) {
                        read(store); // each point once, while batches are half encoded
                      }
                    } catch (Throwable e) {
                      failures.add(e);
                    }
                  });
      start.countDown();
      for (Thread thread : threads) {
        thread.join();
      }
      reader.join();
      assertThat(failures).isEmpty();
      inMemory = read(store);
    }
    assertThat(inMemory).hasSize(keys.size());
    for (TreeMap<Long, Double> points : inMemory.values()) {
      assertThat(points).hasSize(rounds * 5);
      for (Map.Entry<Long, Double> point : points.entrySet()) {
        long round = point.getKey() / 1_000_000L / 5;
        assertThat(point.getValue() % 1000.0).isEqualTo((double) round);
      }
    }
    try (MetricIndexStore reopened =
        new MetricIndexStore(
            "m",
            data.resolve("m"),
            MetricIndexOptions.DEFAULTS.withMaxBucketPoints(Long.MAX_VALUE),
            Clock.systemUTC())) {
      Map<String, TreeMap<Long, Double>> replayed = read(reopened);
      assertThat(replayed.keySet()).isEqualTo(inMemory.keySet());
      for (String series : inMemory.keySet()) {
        for (Map.Entry<Long, Double> point : inMemory.get(series).entrySet()) {
          assertThat(replayed.get(series).get(point.getKey()))
              .as(
                  "%s at %d: in memory before the restart, replayed after it",
                  series, point.getKey())
              .isEqualTo(point.getValue());
        }
      }
    }
  }
}
