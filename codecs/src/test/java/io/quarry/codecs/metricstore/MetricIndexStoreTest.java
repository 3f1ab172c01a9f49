package io.quarry.codecs.metricstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metric index store against a plain model (per series, a sorted map of time to the last value
 * written): random series, points out of order, duplicates, special doubles, rolls, reopening, torn
 * log tails, retention, and chunk skipping.
 */
class MetricIndexStoreTest {
  @TempDir Path data;

  private static final String[] HOSTS = {"h1", "h2", "h3"};

  /** The model: series → time → value (the last one written wins). */
  private final Map<SeriesKey, TreeMap<Long, Double>> model = new HashMap<>();

  private List<MetricPoint> randomBatch(Random random, int size, long base) {
    List<MetricPoint> batch = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      SeriesKey key =
          SeriesKey.of(
              "cpu." + (random.nextBoolean() ? "user" : "sys"),
              Map.of("host", HOSTS[random.nextInt(HOSTS.length)], "region", "us"));
      long time = base + random.nextInt(100_000) * 1_000_000L; // out of order, duplicates
      double value =
          switch (random.nextInt(20)) {
            case 0 -> Double.NaN;
            case 1 -> Double.POSITIVE_INFINITY;
            case 2 -> -0.0;
            default -> random.nextInt(1000) / 4.0;
          };
      batch.add(new MetricPoint(key, time, value));
      model.computeIfAbsent(key, k -> new TreeMap<>()).put(time, value);
    }
    return batch;
  }

  private static Map<SeriesKey, TreeMap<Long, Double>> read(
      MetricIndexStore store, SeriesSelector selector, long from, long to) throws IOException {
    Map<SeriesKey, TreeMap<Long, Double>> read = new HashMap<>();
    store.scan(
        selector,
        from,
        to,
        key -> {
          TreeMap<Long, Double> points = read.computeIfAbsent(key, k -> new TreeMap<>());
          return (time, value) -> {
            Double previous = points.put(time, value);
            assertThat(previous).as("a point read twice: %s at %d", key, time).isNull();
          };
        });
    return read;
  }

  private Map<SeriesKey, TreeMap<Long, Double>> expected(
      java.util.function.Predicate<SeriesKey> test, long from, long to) {
    Map<SeriesKey, TreeMap<Long, Double>> expected = new HashMap<>();
    model.forEach(
        (key, points) -> {
          if (test.test(key)) {
            TreeMap<Long, Double> range = new TreeMap<>(points.subMap(from, to));
            if (!range.isEmpty()) {
              expected.put(key, range);
            }
          }
        });
    return expected;
  }

  private static void assertSame(
      Map<SeriesKey, TreeMap<Long, Double>> actual, Map<SeriesKey, TreeMap<Long, Double>> model) {
    assertThat(actual.keySet()).containsExactlyInAnyOrderElementsOf(model.keySet());
    model.forEach(
        (key, points) -> {
          TreeMap<Long, Double> got = actual.get(key);
          assertThat(got.keySet()).as("%s", key).containsExactlyElementsOf(points.keySet());
          points.forEach(
              (time, value) ->
                  assertThat(Double.doubleToRawLongBits(got.get(time)))
                      .as("%s at %d", key, time)
                      .isEqualTo(Double.doubleToRawLongBits(value)));
        });
  }

  @Test
  void pointsReadBackAcrossRollsAndReopens() throws IOException {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    System.out.println("MetricIndexStoreTest seed " + seed);
    MetricIndexOptions options =
        new MetricIndexOptions(5_000, Duration.ofDays(1), 64, Optional.empty());
    Path index = data.resolve("m");
    MetricIndexStore store = new MetricIndexStore("m", index, options, Clock.systemUTC());
    long base = 1_700_000_000_000_000L;
    for (int round = 0; round < 12; round++) {
      // each round's points in a window of its own: out of order and repeated inside it
      store.add(randomBatch(random, 1 + random.nextInt(2_000), base + round * 100_000_000_000L));
      if (random.nextInt(4) == 0) {
        store.roll();
      }
      if (random.nextInt(4) == 0) {
        store.close(); // no roll: the log replays
        store = new MetricIndexStore("m", index, options, Clock.systemUTC());
      }
      assertSame(read(store, SeriesSelector.ALL, Long.MIN_VALUE, Long.MAX_VALUE), model);
    }
    store.roll();
    // selection by postings and a predicate, over a time range
    long from = base + 250_000 * 1_000_000L;
    long to = base + 650_000 * 1_000_000L;
    SeriesSelector h1 =
        new SeriesSelector(
            List.of(Postings.term("host", "H1")), key -> key.metricName().equals("cpu.user"));
    assertSame(
        read(store, h1, from, to),
        expected(
            key -> key.dimension("host").equals("h1") && key.metricName().equals("cpu.user"),
            from,
            to));
    assertThat(
            read(
                store,
                new SeriesSelector(List.of(Postings.term("host", "h9")), k -> true),
                Long.MIN_VALUE,
                Long.MAX_VALUE))
        .isEmpty();
    store.close();
    // a bucket written but its log not yet deleted (a crash between the two) duplicates nothing
    store = new MetricIndexStore("m", index, options, Clock.systemUTC());
    assertSame(read(store, SeriesSelector.ALL, Long.MIN_VALUE, Long.MAX_VALUE), model);
    store.close();
  }

  @Test
  void aRepeatInALaterBucketWins() throws IOException {
    try (MetricIndexStore store =
        new MetricIndexStore(
            "m", data.resolve("m"), MetricIndexOptions.DEFAULTS, Clock.systemUTC())) {
      SeriesKey key = SeriesKey.of("x", Map.of());
      store.add(List.of(new MetricPoint(key, 10, 1.0), new MetricPoint(key, 10, 2.0)));
      store.roll();
      store.add(List.of(new MetricPoint(key, 10, 3.0)));
      List<Double> values = new ArrayList<>();
      store.scan(SeriesSelector.ALL, Long.MIN_VALUE, Long.MAX_VALUE, k -> (t, v) -> values.add(v));
      assertThat(values).containsExactly(3.0); // last wins in a bucket, and across buckets
      store.roll();
      values.clear();
      store.scan(SeriesSelector.ALL, Long.MIN_VALUE, Long.MAX_VALUE, k -> (t, v) -> values.add(v));
      assertThat(values).containsExactly(3.0);
    }
  }

  @Test
  void chunksOutsideTheRangeAreSkipped() throws IOException {
    MetricIndexOptions options =
        new MetricIndexOptions(1_000_000, Duration.ofDays(1), 100, Optional.empty());
    try (MetricIndexStore store =
        new MetricIndexStore("m", data.resolve("m"), options, Clock.systemUTC())) {
      SeriesKey key = SeriesKey.of("load", Map.of("host", "a"));
      List<MetricPoint> points = new ArrayList<>();
      for (int i = 0; i < 1_000; i++) {
        points.add(new MetricPoint(key, i * 10_000_000L, i));
      }
      store.add(points);
      store.roll();
      double[] sum = {0};
      MetricScanStats stats =
          store.scan(
              SeriesSelector.ALL, 250 * 10_000_000L, 350 * 10_000_000L, k -> (t, v) -> sum[0] += v);
      assertThat(sum[0]).isEqualTo((250 + 349) * 100 / 2.0);
      assertThat(stats.points()).isEqualTo(100);
      assertThat(stats.chunks()).isEqualTo(2); // [200, 300) and [300, 400)
      assertThat(stats.chunksSkipped()).isEqualTo(8);
      assertThat(stats.buckets()).isEqualTo(1);
      assertThat(stats.bucketsSkipped()).isEqualTo(1); // the empty hot bucket
    }
  }

  @Test
  void aTornLogTailIsCutOffAndTheRestReplayed() throws IOException {
    Path index = data.resolve("m");
    SeriesKey key = SeriesKey.of("x", Map.of());
    try (MetricIndexStore store =
        new MetricIndexStore("m", index, MetricIndexOptions.DEFAULTS, Clock.systemUTC())) {
      store.add(List.of(new MetricPoint(key, 1, 1.0)));
      store.add(List.of(new MetricPoint(key, 2, 2.0)));
    }
    Path log;
    try (var files = Files.list(index.resolve("metric-wal"))) {
      log = files.filter(f -> f.toString().endsWith(".log")).sorted().toList().getLast();
    }
    byte[] bytes = Files.readAllBytes(log);
    Files.write(log, java.util.Arrays.copyOf(bytes, bytes.length - 3)); // the last write torn
    try (MetricIndexStore store =
        new MetricIndexStore("m", index, MetricIndexOptions.DEFAULTS, Clock.systemUTC())) {
      Map<SeriesKey, TreeMap<Long, Double>> read =
          read(store, SeriesSelector.ALL, Long.MIN_VALUE, Long.MAX_VALUE);
      assertThat(read.get(key)).containsExactly(Map.entry(1L, 1.0));
    }
    try (var files = Files.list(index.resolve("quarantine"))) {
      assertThat(files.map(f -> f.getFileName().toString()).toList())
          .singleElement()
          .asString()
          .endsWith(".torn");
    }
  }

  @Test
  void damageInsideTheLogLosesOnlyWhatFollowsItAndSaysSo() throws IOException {
    Path index = data.resolve("m");
    SeriesKey key = SeriesKey.of("x", Map.of());
    for (int value = 1; value <= 3; value++) { // each open starts a new log file
      try (MetricIndexStore store =
          new MetricIndexStore("m", index, MetricIndexOptions.DEFAULTS, Clock.systemUTC())) {
        store.add(List.of(new MetricPoint(key, value * 10, value)));
        store.add(List.of(new MetricPoint(key, value * 10 + 1, value)));
      }
    }
    List<Path> logs;
    try (var files = Files.list(index.resolve("metric-wal"))) {
      logs = files.filter(f -> f.toString().endsWith(".log")).sorted().toList();
    }
    // the first record of the oldest file and of the newest file: bit rot, not a torn write
    for (Path log : List.of(logs.get(0), logs.get(logs.size() - 1))) {
      byte[] bytes = Files.readAllBytes(log);
      bytes[8 + 4 + 8 + 8 + 2] ^= 0x01;
      Files.write(log, bytes);
    }
    try (MetricIndexStore store =
        new MetricIndexStore("m", index, MetricIndexOptions.DEFAULTS, Clock.systemUTC())) {
      // the oldest file is set aside whole, the middle one replays, the newest stops at the damage
      assertThat(read(store, SeriesSelector.ALL, Long.MIN_VALUE, Long.MAX_VALUE).get(key))
          .containsOnlyKeys(20L, 21L);
    }
    try (var files = Files.list(index.resolve("quarantine"))) {
      assertThat(files.map(f -> f.getFileName().toString()).toList())
          .anyMatch(name -> name.equals(logs.get(0).getFileName().toString()))
          .anyMatch(name -> name.endsWith(".damaged"));
    }
  }

  @Test
  void retentionDeletesOldBuckets() throws IOException {
    Instant now = Instant.parse("2026-11-25T00:00:00Z");
    Clock clock = Clock.fixed(now, ZoneOffset.UTC);
    MetricIndexOptions options =
        MetricIndexOptions.DEFAULTS.withMaxAge(Optional.of(Duration.ofDays(7)));
    SeriesKey key = SeriesKey.of("x", Map.of());
    long nowMicros = now.toEpochMilli() * 1000;
    try (MetricIndexStore store = new MetricIndexStore("m", data.resolve("m"), options, clock)) {
      store.add(List.of(new MetricPoint(key, nowMicros - Duration.ofDays(8).toMillis() * 1000, 1)));
      store.roll();
      store.add(List.of(new MetricPoint(key, nowMicros - 1_000_000, 2)));
      store.roll();
      assertThat(store.info().warmBuckets()).isEqualTo(2);
      store.applyRetention();
      assertThat(store.info().warmBuckets()).isEqualTo(1);
      assertThat(read(store, SeriesSelector.ALL, Long.MIN_VALUE, Long.MAX_VALUE).get(key))
          .containsOnlyKeys(nowMicros - 1_000_000);
    }
  }

  @Test
  void aDamagedBucketIsQuarantinedAndTheRestStaysReadable() throws IOException {
    Path index = data.resolve("m");
    SeriesKey key = SeriesKey.of("x", Map.of("a", "b"));
    try (MetricIndexStore store =
        new MetricIndexStore("m", index, MetricIndexOptions.DEFAULTS, Clock.systemUTC())) {
      store.add(List.of(new MetricPoint(key, 5, 1.0)));
      store.roll(); // bucket 1
      store.add(List.of(new MetricPoint(key, 6, 2.0)));
      store.roll(); // bucket 2
      store.add(List.of(new MetricPoint(key, 7, 3.0)));
      store.roll(); // bucket 3
      store.add(List.of(new MetricPoint(key, 8, 4.0))); // stays in the log
    }
    flipAByte(index.resolve("metric-buckets").resolve("1").resolve("series.qms"));
    flipAByte(index.resolve("metric-buckets").resolve("2").resolve("chunks.qmc"));
    try (MetricIndexStore store =
        new MetricIndexStore("m", index, MetricIndexOptions.DEFAULTS, Clock.systemUTC())) {
      // the series file is read on open: bucket 1 goes aside at once
      assertThat(store.damage()).singleElement().asString().contains("bucket 1 is damaged");
      List<Double> values = new ArrayList<>();
      MetricScanStats stats =
          store.scan(
              SeriesSelector.ALL, Long.MIN_VALUE, Long.MAX_VALUE, k -> (t, v) -> values.add(v));
      // the chunk file is read by the first search: bucket 2 goes aside then, and says so
      assertThat(values).containsExactly(3.0, 4.0);
      assertThat(stats.warnings()).singleElement().asString().contains("bucket 2 is damaged");
      assertThat(store.damage()).hasSize(2);
      store.add(List.of(new MetricPoint(key, 9, 5.0)));
      store.roll(); // a new bucket id, not a quarantined one's
    }
    try (var quarantined = Files.list(index.resolve("quarantine"))) {
      assertThat(quarantined.map(p -> p.getFileName().toString()).toList())
          .anyMatch(name -> name.startsWith("metric-bucket-1-"))
          .anyMatch(name -> name.startsWith("metric-bucket-2-"));
    }
    try (MetricIndexStore store =
        new MetricIndexStore("m", index, MetricIndexOptions.DEFAULTS, Clock.systemUTC())) {
      List<Double> values = new ArrayList<>();
      store.scan(SeriesSelector.ALL, Long.MIN_VALUE, Long.MAX_VALUE, k -> (t, v) -> values.add(v));
      assertThat(values).containsExactly(3.0, 4.0, 5.0);
      assertThat(store.damage()).isEmpty();
    }
  }

  private static void flipAByte(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length / 2] ^= 0x10;
    Files.write(file, bytes);
  }

  @Test
  void anEventIndexDirectoryIsRefused() throws IOException {
    Path index = data.resolve("main");
    Files.createDirectories(index.resolve("buckets").resolve("1"));
    assertThatThrownBy(
            () ->
                new MetricIndexStore("main", index, MetricIndexOptions.DEFAULTS, Clock.systemUTC()))
        .hasMessageContaining("holds event buckets");
  }
}
