package io.quarry.codecs.metricstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same {@link SeriesKey} instances written to two indexes, with rolls of each in between (HEC
 * interns keys, and a key remembers what an index last found for it: its hot series, its number in
 * the log file): each index holds exactly its own points — in memory, after its rolls, and after a
 * reopen that replays its log files, whose series numbers belong to each file.
 */
class SharedSeriesKeysTest {
  @TempDir Path directory;

  @Test
  void twoIndexesAndTheirRollsNeverMixTheirSeries() throws Exception {
    long seed = new Random().nextLong();
    System.out.println("SharedSeriesKeysTest seed " + seed);
    Random random = new Random(seed);
    SeriesKey[] keys = new SeriesKey[12];
    for (int k = 0; k < keys.length; k++) {
      keys[k] = SeriesKey.of("m" + (k % 4), Map.of("host", "h" + (k / 4)));
    }
    List<String> names = List.of("a", "b");
    Map<String, Map<SeriesKey, TreeMap<Long, Double>>> model = new HashMap<>();
    Map<String, MetricIndexStore> stores = new HashMap<>();
    for (String name : names) {
      stores.put(name, open(name));
      model.put(name, new HashMap<>());
    }
    for (int round = 0; round < 200; round++) {
      String name = names.get(random.nextInt(2));
      MetricBatch batch = new MetricBatch(8);
      int[] ordinals = new int[keys.length];
      for (int k = 0; k < keys.length; k++) {
        ordinals[k] = random.nextInt(3) == 0 ? -1 : batch.addSeries(keys[k]);
      }
      for (int k = 0; k < keys.length; k++) {
        if (ordinals[k] >= 0) {
          long time = 1_000_000L * (round * 10 + random.nextInt(10));
          double value = random.nextInt(1000);
          batch.add(ordinals[k], time, value);
          model.get(name).computeIfAbsent(keys[k], x -> new TreeMap<>()).put(time, value);
        }
      }
      stores.get(name).add(batch);
      switch (random.nextInt(12)) {
        case 0 -> stores.get(name).roll(); // a new hot bucket and a new log file
        case 1 -> { // a reopen: the log files replayed, their dictionaries read back
          stores.get(name).close();
          stores.put(name, open(name));
        }
        default -> {}
      }
    }
    for (String name : names) {
      assertThat(read(stores.get(name)))
          .as("index %s, seed %d", name, seed)
          .isEqualTo(model.get(name));
      stores.get(name).close();
      try (MetricIndexStore reopened = open(name)) {
        assertThat(read(reopened))
            .as("index %s reopened, seed %d", name, seed)
            .isEqualTo(model.get(name));
      }
    }
  }

  private MetricIndexStore open(String name) throws Exception {
    return new MetricIndexStore(
        name, directory.resolve(name), MetricIndexOptions.DEFAULTS, Clock.systemUTC());
  }

  private static Map<SeriesKey, TreeMap<Long, Double>> read(MetricIndexStore store)
      throws Exception {
    Map<SeriesKey, TreeMap<Long, Double>> read = new HashMap<>();
    store.scan(
        new SeriesSelector(List.of(), key -> true),
        Long.MIN_VALUE,
        Long.MAX_VALUE,
        key -> {
          TreeMap<Long, Double> points = read.computeIfAbsent(key, k -> new TreeMap<>());
          return (time, value) -> points.put(time, value);
        });
    return read;
  }
}
