package io.quarry.server.search.metric;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.metricstore.MetricIndexOptions;
import io.quarry.codecs.metricstore.MetricIndexStore;
import io.quarry.codecs.metricstore.MetricPoint;
import io.quarry.codecs.metricstore.SeriesKey;
import io.quarry.codecs.metricstore.SeriesSelector;
import io.quarry.ql.ast.MstatsCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mstats} over a real metric index (two warm buckets on disk, one overlapping the other in
 * time, and the hot bucket) read in parallel slices of series on a pool, against the same command
 * read in one thread: the same rows and columns; counts, extremes, earliest/latest (ties between
 * series at the same instant included) and percentiles exactly, sums, averages, deviations and
 * rates to within rounding.
 */
class MstatsParallelTest {
  @TempDir static Path directory;
  private static MetricIndexStore store;
  private static ExecutorService pool;
  private static final AtomicInteger PARALLEL_TASKS = new AtomicInteger();
  private static final long T0 = 1_767_780_000_000_000L;

  @BeforeAll
  static void load() throws Exception {
    store = new MetricIndexStore("m", directory, MetricIndexOptions.DEFAULTS, Clock.systemUTC());
    pool = Executors.newFixedThreadPool(3);
    Random random = new Random(25);
    List<SeriesKey> keys = new ArrayList<>();
    for (int h = 0; h < 4; h++) {
      for (int m = 0; m < 80; m++) {
        keys.add(SeriesKey.of("m." + m, Map.of("host", "h" + h, "region", h < 2 ? "us" : "eu")));
      }
    }
    // three stretches: two rolled to warm buckets (the second with late points of ten series,
    // overlapping the first), one hot
    for (int stretch = 0; stretch < 3; stretch++) {
      List<MetricPoint> points = new ArrayList<>();
      int start = stretch * 200;
      if (stretch == 1) {
        for (int s = 0; s < 10; s++) {
          for (int i = 100; i < 120; i++) {
            points.add(new MetricPoint(keys.get(s), T0 + i * 10_000_000L, -i));
          }
        }
      }
      for (int i = start; i < start + 200; i++) {
        for (int s = 0; s < keys.size(); s++) {
          if (random.nextInt(10) == 0) {
            continue; // gaps
          }
          long time = T0 + i * 10_000_000L; // all series at the same instants: ties
          double value =
              switch (s % 4) {
                case 0 -> random.nextInt(100);
                case 1 -> random.nextGaussian() * 1e6 + 0.1;
                case 2 -> (i % 50) * 17.25; // a counter with resets
                default -> random.nextInt(50) == 0 ? Double.NaN : i * 0.5;
              };
          points.add(new MetricPoint(keys.get(s), time, value));
        }
      }
      store.add(points);
      if (stretch < 2) {
        store.roll();
      }
    }
  }

  @AfterAll
  static void close() throws Exception {
    pool.shutdown();
    store.close();
  }

  private static MstatsCommand mstats(String query) {
    return (MstatsCommand) new Parser(CommandRegistry.builtIns()).parse(query).commands().get(0);
  }

  private static List<MstatsRunTest.PositionRow> run(String query, boolean parallel)
      throws Exception {
    MstatsRun run = new MstatsRun(mstats(query), ZoneOffset.UTC, () -> false);
    run.index("m");
    SeriesSelector selector = new SeriesSelector(List.of(), key -> run.wants(key.metricName()));
    if (parallel) {
      store.scan(
          selector,
          Long.MIN_VALUE,
          Long.MAX_VALUE,
          run,
          task -> {
            PARALLEL_TASKS.incrementAndGet();
            pool.execute(task);
          },
          4);
    } else {
      store.scan(selector, Long.MIN_VALUE, Long.MAX_VALUE, run);
    }
    return MstatsRunTest.rows(run);
  }

  private static void assertSame(String query, List<String> exact) throws Exception {
    int tasksBefore = PARALLEL_TASKS.get();
    List<MstatsRunTest.PositionRow> one = run(query, false);
    List<MstatsRunTest.PositionRow> sliced = run(query, true);
    assertThat(PARALLEL_TASKS.get()).as("slices handed to the pool").isGreaterThan(tasksBefore);
    assertThat(sliced).hasSameSizeAs(one);
    assertThat(one).isNotEmpty();
    for (int r = 0; r < one.size(); r++) {
      MstatsRunTest.PositionRow a = one.get(r);
      MstatsRunTest.PositionRow b = sliced.get(r);
      assertThat(b.fieldNames()).as("row %d", r).isEqualTo(a.fieldNames());
      for (String field : a.fieldNames()) {
        Object x = a.values(field).get(0);
        Object y = b.values(field).get(0);
        boolean mustBeExact = !(x instanceof Double) || exact.stream().anyMatch(field::startsWith);
        if (mustBeExact) {
          assertThat(y).as("row %d %s", r, field).isEqualTo(x);
        } else {
          double expected = (Double) x;
          assertThat((Double) y)
              .as("row %d %s", r, field)
              .isCloseTo(
                  expected, org.assertj.core.data.Offset.offset(1e-9 * (1 + Math.abs(expected))));
        }
      }
    }
  }

  @Test
  void wildcardColumnsPerMetric() throws Exception {
    assertSame(
        "| mstats count(m.*) min(m.*) max(m.*) avg(m.*) sum(m.*) where index=m span=1m",
        List.of("count", "min", "max"));
  }

  @Test
  void groupsOverManySeries() throws Exception {
    assertSame(
        "| mstats count(_value) AS n latest(_value) AS last earliest(_value) AS first"
            + " median(_value) AS med perc90(_value) AS p90 stdev(_value) AS sd avg(_value) AS a"
            + " where index=m by region span=5m",
        List.of("n", "last", "first", "med", "p90"));
  }

  @Test
  void ratesAcrossBuckets() throws Exception {
    assertSame(
        "| mstats rate(_value) AS r rate_avg(_value) AS ra where index=m by host span=10m",
        List.of());
  }

  @Test
  void noSpanOneRowPerGroup() throws Exception {
    assertSame(
        "| mstats count(_value) AS n max(_value) AS mx var(_value) AS v where index=m by host",
        List.of("n", "mx"));
  }
}
