package io.quarry.codecs.metricstore;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The child process of {@link MetricCrashRecoveryTest}: writes numbered points to the metric index
 * {@code m} from {@link #THREADS} threads, printing {@code ACK <thread> <last>} after each batch is
 * acknowledged, with small buckets so that rolls happen while it is killed, and a thread merging
 * them three at a time so that merges are killed too.
 */
public final class MetricCrashWriter {
  static final int THREADS = 2;
  static final int BATCH = 50;
  static final long ROUND_SPAN = 1_000_000_000L;

  public static void main(String[] args) throws Exception {
    Path data = Path.of(args[0]);
    int round = Integer.parseInt(args[1]);
    MetricIndexOptions options =
        new MetricIndexOptions(2_000, Duration.ofDays(1), 128, Optional.empty())
            .withMerges(3, 1_000_000);
    MetricIndexStore store =
        new MetricIndexStore("m", data.resolve("m"), options, Clock.systemUTC());
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      SeriesKey key = SeriesKey.of("crash", Map.of("thread", Integer.toString(thread)));
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      for (int next = 0; ; ) {
                        List<MetricPoint> batch = new ArrayList<>();
                        for (int i = 0; i < BATCH; i++, next++) {
                          batch.add(new MetricPoint(key, round * ROUND_SPAN + next, next));
                        }
                        store.add(batch);
                        synchronized (System.out) {
                          System.out.println("ACK " + thread + " " + (next - 1));
                          System.out.flush();
                        }
                      }
                    } catch (Exception e) {
                      e.printStackTrace();
                    }
                  }));
    }
    Thread.ofPlatform()
        .daemon(true)
        .start(
            () -> {
              try {
                while (true) {
                  store.merge();
                  Thread.sleep(2);
                }
              } catch (Exception e) {
                e.printStackTrace();
              }
            });
    for (Thread thread : threads) {
      thread.join();
    }
  }
}
