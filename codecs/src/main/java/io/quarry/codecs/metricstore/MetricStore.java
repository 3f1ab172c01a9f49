package io.quarry.codecs.metricstore;

import io.quarry.codecs.store.EventStore;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * Every metric index of a data directory ({@code <data>/indexes/<name>/}, beside the event
 * indexes), and the thread that rolls their hot buckets, merges warm buckets and applies retention
 * (a merge holds that thread while it runs: at most {@link MetricIndexOptions#maxMergedPoints}).
 */
public final class MetricStore implements Closeable {
  private static final Logger LOG = Logger.getLogger(MetricStore.class.getName());

  private final Map<String, MetricIndexStore> indexes;
  private final ScheduledExecutorService scheduler;

  private MetricStore(Map<String, MetricIndexStore> indexes, ScheduledExecutorService scheduler) {
    this.indexes = indexes;
    this.scheduler = scheduler;
  }

  /** No metric index. */
  public static MetricStore empty() {
    return new MetricStore(Map.of(), null);
  }

  /**
   * Opens (creating where missing) every declared metric index, replaying its log; {@code
   * maintenance} is how often hot buckets are checked for a roll and retention applied.
   */
  public static MetricStore open(
      Path dataDirectory,
      Map<String, MetricIndexOptions> options,
      Clock clock,
      Duration maintenance)
      throws IOException {
    Map<String, MetricIndexStore> indexes = new TreeMap<>();
    try {
      for (Map.Entry<String, MetricIndexOptions> entry : options.entrySet()) {
        String name = entry.getKey();
        if (!EventStore.INDEX_NAME.matcher(name).matches()) {
          throw new IllegalArgumentException(
              "invalid index name '" + name + "': use lower-case letters, digits, '_' and '-'");
        }
        Path path = dataDirectory.resolve("indexes").resolve(name);
        Files.createDirectories(path);
        indexes.put(name, new MetricIndexStore(name, path, entry.getValue(), clock));
      }
    } catch (IOException | RuntimeException e) {
      for (MetricIndexStore store : indexes.values()) {
        try {
          store.close();
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
    if (indexes.isEmpty()) {
      return new MetricStore(Map.of(), null);
    }
    ScheduledExecutorService scheduler =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("quarry-metric-roller").daemon(true).factory());
    MetricStore store = new MetricStore(indexes, scheduler);
    long every = Math.max(1, maintenance.toMillis());
    scheduler.scheduleWithFixedDelay(store::maintain, every, every, TimeUnit.MILLISECONDS);
    return store;
  }

  private void maintain() {
    for (MetricIndexStore index : indexes.values()) {
      try {
        index.maintain();
      } catch (IOException | RuntimeException e) {
        LOG.log(
            Level.WARNING,
            "metric index '" + index.name() + "': roll, merge or retention failed",
            e);
      }
    }
  }

  public Set<String> indexNames() {
    return indexes.keySet();
  }

  public boolean hasIndex(String name) {
    return indexes.containsKey(name);
  }

  public MetricIndexStore index(String name) {
    MetricIndexStore store = indexes.get(name);
    if (store == null) {
      throw new IllegalArgumentException("no such metric index: " + name);
    }
    return store;
  }

  /**
   * The metric indexes matching any of the patterns ({@code *} wildcards, case-insensitive); a
   * pattern not starting with {@code _} matches no internal index, as for event indexes.
   */
  public List<String> resolve(List<String> patterns) {
    List<String> matched = new ArrayList<>();
    for (String name : indexes.keySet()) {
      for (String pattern : patterns) {
        String lower = pattern.toLowerCase(Locale.ROOT);
        boolean internal = name.startsWith("_") && !lower.startsWith("_");
        String regex =
            java.util.Arrays.stream(lower.split("\\*", -1))
                .map(Pattern::quote)
                .collect(java.util.stream.Collectors.joining(".*"));
        if (!internal && Pattern.matches(regex, name)) {
          matched.add(name);
          break;
        }
      }
    }
    return matched;
  }

  @Override
  public void close() throws IOException {
    if (scheduler != null) {
      scheduler.shutdownNow();
      try {
        scheduler.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    IOException failure = null;
    for (MetricIndexStore store : indexes.values()) {
      try {
        store.close();
      } catch (IOException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
