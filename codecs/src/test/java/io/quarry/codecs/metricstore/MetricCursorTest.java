package io.quarry.codecs.metricstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cursor a reader advances ({@link MetricIndexStore#cursor}) against the scan ({@link
 * MetricIndexStore#scan}) over the same buckets — warm ones, the one in memory, and groups of
 * buckets overlapping in time (late points, merged across buckets): the same series and points in
 * the same order, one chunk a step, the same figures; stopped early, it reads less.
 */
class MetricCursorTest {
  @TempDir Path data;

  private static final String[] HOSTS = {"h1", "h2", "h3", "h4", "h5"};

  /** What a visitor received, in order: a series' key, then its points. */
  private static final class Trace implements MetricScanVisitor {
    final List<String> events = new ArrayList<>();
    int series;
    int points;

    @Override
    public Points series(SeriesKey key) {
      series++;
      events.add("series " + key);
      return (time, value) -> {
        points++;
        events.add(time + "=" + value);
      };
    }
  }

  @Test
  void theCursorReadsWhatTheScanReadsInItsOrderOneChunkAStep() throws IOException {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    MetricIndexOptions options =
        new MetricIndexOptions(400, Duration.ofDays(1), 32, Optional.empty());
    long base = 1_700_000_000_000_000L;
    long step = 10_000_000_000L;
    try (MetricIndexStore store =
        new MetricIndexStore("m", data.resolve("m"), options, Clock.systemUTC())) {
      for (int round = 0; round < 30; round++) {
        // mostly forward in time; one batch in four late, into buckets rolled already
        long at =
            random.nextInt(4) == 0 ? base + random.nextInt(round + 1) * step : base + round * step;
        List<MetricPoint> batch = new ArrayList<>();
        for (int i = 0, n = 1 + random.nextInt(200); i < n; i++) {
          SeriesKey key =
              SeriesKey.of(
                  "m" + random.nextInt(3), Map.of("host", HOSTS[random.nextInt(HOSTS.length)]));
          batch.add(new MetricPoint(key, at + (long) (random.nextDouble() * step), i));
        }
        store.add(batch);
        if (random.nextInt(3) == 0) {
          store.roll();
        }
      }
      for (int query = 0; query < 40; query++) {
        String host = HOSTS[random.nextInt(HOSTS.length)];
        SeriesSelector selector =
            random.nextBoolean()
                ? SeriesSelector.ALL
                : new SeriesSelector(
                    List.of(Postings.term("host", host)), key -> !key.metricName().equals("m1"));
        long from = base + random.nextInt(30) * step;
        long to = from + (1 + random.nextInt(30)) * step;
        Trace scanned = new Trace();
        MetricScanStats scan = store.scan(selector, from, to, scanned);
        Trace pulled = new Trace();
        MetricScanStats read;
        try (MetricCursor cursor = store.cursor(selector, from, to)) {
          int steps = 0;
          while (true) {
            int series = pulled.series;
            int points = pulled.points;
            boolean more = cursor.advance(pulled);
            assertThat(pulled.series - series).as("seed %d: a series a step", seed).isLessThan(2);
            assertThat(pulled.points - points)
                .as("seed %d: a chunk a step", seed)
                .isLessThanOrEqualTo(32);
            if (!more) {
              break;
            }
            steps++;
          }
          assertThat(steps).as("seed %d", seed).isGreaterThanOrEqualTo(pulled.series);
          read = cursor.stats();
        }
        assertThat(pulled.events).as("seed %d query %d", seed, query).isEqualTo(scanned.events);
        assertThat(read).as("seed %d query %d", seed, query).isEqualTo(scan);
      }
    }
  }

  @Test
  void aCursorLeftEarlyReadsOnlyWhatWasPulled() throws IOException {
    MetricIndexOptions options =
        new MetricIndexOptions(400, Duration.ofDays(1), 32, Optional.empty());
    long base = 1_700_000_000_000_000L;
    try (MetricIndexStore store =
        new MetricIndexStore("m", data.resolve("m"), options, Clock.systemUTC())) {
      List<MetricPoint> batch = new ArrayList<>();
      for (int s = 0; s < 50; s++) {
        for (int p = 0; p < 20; p++) {
          batch.add(new MetricPoint(SeriesKey.of("cpu", Map.of("host", "h" + s)), base + p, p));
        }
      }
      store.add(batch);
      store.roll();
      Trace pulled = new Trace();
      try (MetricCursor cursor = store.cursor(SeriesSelector.ALL, base, base + 100)) {
        for (int i = 0; i < 3; i++) {
          assertThat(cursor.advance(pulled)).isTrue();
        }
        assertThat(pulled.series).isLessThanOrEqualTo(3);
        assertThat(cursor.stats().points()).isEqualTo(20L * pulled.series);
      }
      assertThat(store.scan(SeriesSelector.ALL, base, base + 100, new Trace()).points())
          .isEqualTo(50 * 20);
    }
  }
}
