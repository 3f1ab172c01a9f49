package io.quarry.codecs.metricstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.codecs.testing.SettableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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
 * Merges of warm buckets against a plain model (per series, time → the last value written): random
 * series and many rolls with points late and repeated across buckets, answers identical before and
 * after each merge and after reopening; a search holding the merged buckets; a crash between each
 * step of a merge; retention of merged buckets; the policy.
 */
class MetricBucketMergeTest {
  @TempDir Path data;

  private static final String[] HOSTS = {"h1", "h2", "h3", "h4"};
  private final Map<SeriesKey, TreeMap<Long, Double>> model = new HashMap<>();

  private List<MetricPoint> randomBatch(Random random, int size, long base, long window) {
    List<MetricPoint> batch = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      SeriesKey key =
          SeriesKey.of(
              "m" + random.nextInt(3), Map.of("host", HOSTS[random.nextInt(HOSTS.length)]));
      long time = base + (long) (random.nextDouble() * window);
      double value =
          switch (random.nextInt(25)) {
            case 0 -> Double.NaN;
            case 1 -> Double.NEGATIVE_INFINITY;
            default -> random.nextInt(10_000) / 8.0;
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
    read.values().removeIf(TreeMap::isEmpty);
    return read;
  }

  private Map<SeriesKey, TreeMap<Long, Double>> expected(String host, long from, long to) {
    Map<SeriesKey, TreeMap<Long, Double>> expected = new HashMap<>();
    model.forEach(
        (key, points) -> {
          if (host == null || key.dimension("host").equals(host)) {
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

  private void assertAnswers(MetricIndexStore store, Random random, long base, long span)
      throws IOException {
    assertSame(
        read(store, SeriesSelector.ALL, Long.MIN_VALUE, Long.MAX_VALUE),
        expected(null, 0, Long.MAX_VALUE));
    long from = base + (long) (random.nextDouble() * span);
    long to = from + (long) (random.nextDouble() * span / 3);
    String host = HOSTS[random.nextInt(HOSTS.length)];
    SeriesSelector selector = new SeriesSelector(List.of(Postings.term("host", host)), key -> true);
    assertSame(read(store, selector, from, to), expected(host, from, to));
  }

  private static int bucketDirectories(Path index) throws IOException {
    try (var dirs = Files.list(index.resolve("metric-buckets"))) {
      return (int) dirs.count();
    }
  }

  @Test
  void answersMatchTheModelBeforeAndAfterEveryMerge() throws IOException {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    System.out.println("MetricBucketMergeTest seed " + seed);
    MetricIndexOptions options =
        new MetricIndexOptions(400, Duration.ofDays(1), 32, Optional.empty()).withMerges(3, 5_000);
    Path index = data.resolve("m");
    MetricIndexStore store = new MetricIndexStore("m", index, options, Clock.systemUTC());
    long base = 1_700_000_000_000_000L;
    long step = 10_000_000_000L;
    int merges = 0;
    for (int round = 0; round < 60; round++) {
      // mostly moving forward in time; one batch in four late, into what has rolled already
      long at =
          random.nextInt(4) == 0 ? base + random.nextInt(round + 1) * step : base + round * step;
      store.add(randomBatch(random, 1 + random.nextInt(300), at, step));
      if (random.nextInt(3) == 0) {
        store.roll();
      }
      assertAnswers(store, random, base, (round + 1) * step);
      while (store.merge()) {
        merges++;
        assertAnswers(store, random, base, (round + 1) * step);
      }
      if (random.nextInt(8) == 0) {
        store.close();
        store = new MetricIndexStore("m", index, options, Clock.systemUTC());
        assertAnswers(store, random, base, (round + 1) * step);
      }
    }
    store.roll();
    while (store.merge()) {
      merges++;
    }
    assertAnswers(store, random, base, 60 * step);
    assertThat(merges).as("seed %d", seed).isPositive();
    int buckets = store.info().warmBuckets();
    assertThat(bucketDirectories(index)).isEqualTo(buckets); // sources deleted
    store.close();
    store = new MetricIndexStore("m", index, options, Clock.systemUTC());
    assertThat(store.info().warmBuckets()).isEqualTo(buckets);
    assertAnswers(store, random, base, 60 * step);
    store.close();
  }

  /** Five buckets of one series, the third repeating (with other values) the first's times. */
  private MetricIndexStore fiveBuckets(Path index, MetricIndexOptions options) throws IOException {
    MetricIndexStore store = new MetricIndexStore("m", index, options, Clock.systemUTC());
    SeriesKey key = SeriesKey.of("x", Map.of("host", "a"));
    for (int b = 0; b < 5; b++) {
      List<MetricPoint> points = new ArrayList<>();
      long start = (b == 2 ? 0 : b) * 1_000L;
      for (int i = 0; i < 100; i++) {
        long time = start + i * 10L;
        double value = b * 1000 + i;
        points.add(new MetricPoint(key, time, value));
        model.computeIfAbsent(key, k -> new TreeMap<>()).put(time, value);
      }
      store.add(points);
      store.roll();
    }
    return store;
  }

  @Test
  void aSearchHoldingTheSourcesOfAMergeKeepsReadingThem() throws IOException {
    Path index = data.resolve("m");
    MetricIndexOptions options = MetricIndexOptions.DEFAULTS.withMerges(5, 1_000_000);
    try (MetricIndexStore store = fiveBuckets(index, options)) {
      Map<Long, Double> read = new TreeMap<>();
      boolean[] merged = {false};
      store.scan(
          SeriesSelector.ALL,
          Long.MIN_VALUE,
          Long.MAX_VALUE,
          key -> {
            if (!merged[0]) { // the scan has its buckets, no chunk file read yet
              try {
                merged[0] = store.merge();
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
              assertThat(bucketDirectoriesUnchecked(index)).isEqualTo(6); // the sources wait
            }
            return (time, value) -> assertThat(read.put(time, value)).isNull();
          });
      assertThat(merged[0]).isTrue();
      assertThat(read).isEqualTo(model.values().iterator().next());
      assertThat(bucketDirectories(index)).isOne(); // released by the scan: deleted
      assertThat(store.info().warmBuckets()).isOne();
      assertSame(read(store, SeriesSelector.ALL, Long.MIN_VALUE, Long.MAX_VALUE), model);
    }
  }

  private int bucketDirectoriesUnchecked(Path index) {
    try {
      return bucketDirectories(index);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aCrashBetweenAnyTwoStepsOfAMergeLeavesEveryPointOnce() throws IOException {
    MetricIndexOptions options = MetricIndexOptions.DEFAULTS.withMerges(5, 1_000_000);
    for (BucketMerger.Step crashAfter : BucketMerger.Step.values()) {
      model.clear();
      Path index = data.resolve("m-" + crashAfter);
      MetricIndexStore store = fiveBuckets(index, options);
      store.mergeHook(
          step -> {
            if (step == crashAfter) {
              throw new IOException("crash after " + step);
            }
          });
      assertThatThrownBy(store::merge).hasMessage("crash after " + crashAfter);
      store.close(); // what is on disk is what a crash at this step leaves
      try (MetricIndexStore reopened =
          new MetricIndexStore("m", index, options, Clock.systemUTC())) {
        assertSame(read(reopened, SeriesSelector.ALL, Long.MIN_VALUE, Long.MAX_VALUE), model);
        int expected = crashAfter == BucketMerger.Step.TEMPORARY_WRITTEN ? 5 : 1;
        assertThat(reopened.info().warmBuckets()).as("after %s", crashAfter).isEqualTo(expected);
        assertThat(bucketDirectoriesUnchecked(index))
            .as("after %s", crashAfter)
            .isEqualTo(expected);
        // points stored: the repeated 100 are stored twice until merged (searches see them once)
        assertThat(reopened.info().points()).isEqualTo(expected == 5 ? 500 : 400);
        reopened.merge(); // and the merge goes through now where it did not
        assertThat(reopened.info().warmBuckets()).isOne();
        assertSame(read(reopened, SeriesSelector.ALL, Long.MIN_VALUE, Long.MAX_VALUE), model);
      }
    }
  }

  @Test
  void retentionDeletesAMergedBucketOnceItsNewestPointIsOld() throws IOException {
    Instant now = Instant.parse("2026-11-25T00:00:00Z");
    long nowMicros = now.toEpochMilli() * 1000;
    long day = Duration.ofDays(1).toMillis() * 1000;
    MetricIndexOptions options =
        MetricIndexOptions.DEFAULTS
            .withMaxAge(Optional.of(Duration.ofDays(7)))
            .withMerges(2, 1_000_000);
    SeriesKey key = SeriesKey.of("x", Map.of());
    SettableClock clock = new SettableClock(now);
    try (MetricIndexStore store = new MetricIndexStore("m", data.resolve("m"), options, clock)) {
      store.add(List.of(new MetricPoint(key, nowMicros - 9 * day, 1)));
      store.roll();
      store.add(List.of(new MetricPoint(key, nowMicros - 2 * day, 2)));
      store.roll();
      assertThat(store.merge()).isTrue();
      store.applyRetention(); // its newest point is 2 days old: kept, old point and all
      assertThat(store.info().warmBuckets()).isOne();
      assertThat(store.info().points()).isEqualTo(2);
      clock.advance(Duration.ofDays(6));
      store.applyRetention();
      assertThat(store.info().warmBuckets()).isZero();
      assertThat(bucketDirectories(data.resolve("m"))).isZero();
    }
  }

  @Test
  void thePolicyMergesAdjacentSmallBucketsAndLeavesBigOnes() throws IOException {
    Path index = data.resolve("m");
    MetricIndexOptions options = MetricIndexOptions.DEFAULTS.withMerges(3, 1_000);
    try (MetricIndexStore store = new MetricIndexStore("m", index, options, Clock.systemUTC())) {
      SeriesKey key = SeriesKey.of("x", Map.of());
      int[] sizes = {900, 10, 10, 10, 10, 600, 300, 300};
      long time = 0;
      for (int size : sizes) {
        List<MetricPoint> points = new ArrayList<>();
        for (int i = 0; i < size; i++) {
          points.add(new MetricPoint(key, time++, i));
        }
        store.add(points);
        store.roll();
      }
      List<WarmBucket> byRoll = new ArrayList<>();
      for (Path dir : MetricBucketFormat.list(index.resolve("metric-buckets"))) {
        byRoll.add(WarmBucket.open(dir));
      }
      // 900 + 10 + 10: one bucket too big for the rest; 10 x 3 is the smallest balanced run;
      // 600 + 300 + 300 is balanced but over the cap
      assertThat(MergePolicy.select(byRoll, options))
          .extracting(b -> b.points)
          .containsExactly(10L, 10L, 10L);
      assertThat(store.merge()).isTrue();
      assertThat(store.info().warmBuckets()).isEqualTo(6);
      assertThat(store.merge()).isFalse(); // 900,30,10,600,300,300: nothing balanced under 1,000
      assertThat(store.info().points()).isEqualTo(2_140);
    }
  }

  @Test
  void aSourceFoundDamagedByAMergeIsQuarantinedAndTheMergeWaits() throws IOException {
    Path index = data.resolve("m");
    MetricIndexOptions options = MetricIndexOptions.DEFAULTS.withMerges(5, 1_000_000);
    try (MetricIndexStore store = fiveBuckets(index, options)) {
      Path chunks = index.resolve("metric-buckets").resolve("4").resolve("chunks.qmc");
      byte[] bytes = Files.readAllBytes(chunks);
      bytes[bytes.length / 2] ^= 0x10;
      Files.write(chunks, bytes);
      assertThat(store.merge()).isFalse();
      assertThat(store.damage()).singleElement().asString().contains("bucket 4 is damaged");
      assertThat(store.info().warmBuckets()).isEqualTo(4);
      assertThat(store.merge()).isFalse(); // four left: fewer than the factor
    }
  }

  @Test
  void bucketsOfSeriesFileVersionOneStillOpenAndMerge() throws IOException {
    Path index = data.resolve("m");
    MetricIndexOptions options = MetricIndexOptions.DEFAULTS.withMerges(5, 1_000_000);
    fiveBuckets(index, options).close();
    for (int id = 1; id <= 5; id++) { // as the version before merges wrote them
      downgradeToVersionOne(index.resolve("metric-buckets").resolve(Integer.toString(id)));
    }
    try (MetricIndexStore store = new MetricIndexStore("m", index, options, Clock.systemUTC())) {
      assertSame(read(store, SeriesSelector.ALL, Long.MIN_VALUE, Long.MAX_VALUE), model);
      assertThat(store.merge()).isTrue();
      assertSame(read(store, SeriesSelector.ALL, Long.MIN_VALUE, Long.MAX_VALUE), model);
    }
    try (MetricIndexStore store = new MetricIndexStore("m", index, options, Clock.systemUTC())) {
      assertThat(store.info().warmBuckets()).isOne();
      assertSame(read(store, SeriesSelector.ALL, Long.MIN_VALUE, Long.MAX_VALUE), model);
    }
  }

  /** Rewrites a bucket's series file as version 1: no FirstRoll and LastRoll, version 1. */
  private static void downgradeToVersionOne(Path bucket) throws IOException {
    Path file = bucket.resolve(MetricBucketFormat.SERIES_FILE);
    byte[] bytes = Files.readAllBytes(file);
    int header = MetricBucketFormat.HEADER_BYTES;
    org.apache.lucene.store.ByteArrayDataInput in =
        new org.apache.lucene.store.ByteArrayDataInput(bytes, header, bytes.length - header);
    in.readVLong(); // id
    in.readZLong();
    in.readZLong();
    in.readVLong();
    in.readVLong(); // wal generation
    int rollsStart = in.getPosition();
    in.readVLong();
    in.readVLong();
    int rollsEnd = in.getPosition();
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    out.write(bytes, 0, rollsStart);
    out.write(bytes, rollsEnd, bytes.length - Integer.BYTES - rollsEnd);
    byte[] body = out.toByteArray();
    java.nio.ByteBuffer.wrap(body).putInt(8, 1); // the version
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(body);
    Files.write(
        file,
        java.nio.ByteBuffer.allocate(body.length + Integer.BYTES)
            .put(body)
            .putInt((int) crc.getValue())
            .array());
  }
}
