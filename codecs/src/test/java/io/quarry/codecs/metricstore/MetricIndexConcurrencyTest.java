package io.quarry.codecs.metricstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers, rolls and searches at once: every search sees each point at most once (a roll moves a
 * bucket from hot to warm under the lock the search's snapshot takes), at least every point
 * acknowledged before it started, and at the end exactly what was written.
 */
class MetricIndexConcurrencyTest {
  @TempDir Path data;

  @Test
  void searchesDuringWritesAndRollsSeeEachPointOnce() throws Exception {
    MetricIndexOptions options =
        new MetricIndexOptions(3_000, Duration.ofDays(1), 64, Optional.empty());
    int writers = 2;
    int batches = 150;
    int batch = 40;
    try (MetricIndexStore store =
        new MetricIndexStore("m", data.resolve("m"), options, Clock.systemUTC())) {
      AtomicLong acknowledged = new AtomicLong();
      AtomicBoolean done = new AtomicBoolean();
      ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        SeriesKey key = SeriesKey.of("load", Map.of("writer", Integer.toString(w)));
        threads.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      try {
                        for (int b = 0; b < batches; b++) {
                          List<MetricPoint> points = new ArrayList<>();
                          for (int i = 0; i < batch; i++) {
                            points.add(new MetricPoint(key, (long) b * batch + i, 1.0));
                          }
                          store.add(points);
                          acknowledged.addAndGet(batch);
                        }
                      } catch (Throwable e) {
                        failures.add(e);
                      }
                    }));
      }
      Thread roller =
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      while (!done.get()) {
                        store.roll();
                        Thread.sleep(3);
                      }
                    } catch (Throwable e) {
                      failures.add(e);
                    }
                  });
      long searches = 0;
      while (threads.stream().anyMatch(Thread::isAlive)) {
        long before = acknowledged.get();
        Set<String> seen = new HashSet<>();
        long[] duplicates = {0};
        store.scan(
            SeriesSelector.ALL,
            Long.MIN_VALUE,
            Long.MAX_VALUE,
            key -> {
              String writer = key.dimension("writer");
              return (time, value) -> {
                if (!seen.add(writer + "/" + time)) {
                  duplicates[0]++;
                }
              };
            });
        long after = acknowledged.get();
        assertThat(duplicates[0]).as("points read twice by search %d", searches).isZero();
        assertThat((long) seen.size()).isBetween(before, after + (long) writers * batch);
        searches++;
      }
      done.set(true);
      roller.join();
      for (Thread thread : threads) {
        thread.join();
      }
      assertThat(failures).isEmpty();
      long[] total = {0};
      store.scan(SeriesSelector.ALL, Long.MIN_VALUE, Long.MAX_VALUE, key -> (t, v) -> total[0]++);
      assertThat(total[0]).isEqualTo((long) writers * batches * batch);
      assertThat(searches).isPositive();
    }
  }
}
