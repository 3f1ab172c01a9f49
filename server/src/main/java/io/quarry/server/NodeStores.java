package io.quarry.server;

import io.quarry.codecs.metricstore.MetricIndexOptions;
import io.quarry.codecs.metricstore.MetricStore;
import io.quarry.codecs.store.BucketDirectories;
import io.quarry.codecs.store.EventStore;
import io.quarry.codecs.store.IndexOptions;
import io.quarry.server.audit.AuditLog;
import io.quarry.server.config.ConfigException;
import io.quarry.server.config.QuarryConfig;
import io.quarry.server.ingest.InternalLog;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.lucene.store.LockObtainFailedException;

/**
 * The two stores of a node's data directory, opened with the configured options: the event store
 * (every event index, with the internal and audit indexes) and the metric store (the indexes
 * declared {@code datatype: metric}), both on the node's clock (bucket ages and retention; until
 * session 40 the event store took the system clock whatever the server was given).
 */
record NodeStores(EventStore events, MetricStore metrics) {

  /**
   * Opens both; when the metric store cannot open, the event store is closed again (a failure of
   * that close suppressed in the metric store's, which is thrown).
   *
   * @throws ConfigException when another Quarry process holds the data directory
   */
  static NodeStores open(
      QuarryConfig config, Path dataDirectory, Sourcetypes sourcetypes, Clock clock)
      throws IOException {
    return open(
        config,
        dataDirectory,
        sourcetypes,
        clock,
        index -> io.quarry.codecs.store.BucketDirectories.DEFAULT);
  }

  /**
   * As above, each event index's buckets opened by {@code directories} (given the index's name):
   * the seam through which tests fail one index's disk on a real server ({@code
   * QuarryServer.start}'s, reached through the test helper {@code TestServers}).
   */
  static NodeStores open(
      QuarryConfig config,
      Path dataDirectory,
      Sourcetypes sourcetypes,
      Clock clock,
      Function<String, BucketDirectories> directories)
      throws IOException {
    EventStore events;
    try {
      Map<String, IndexOptions> options = new LinkedHashMap<>();
      for (String index : config.indexes()) {
        if (!config.storage().isMetric(index)) {
          options.put(index, config.indexOptions(index, sourcetypes));
        }
      }
      options.put(InternalLog.INDEX, config.storage().options(InternalLog.INDEX));
      options.put(AuditLog.INDEX, config.storage().options(AuditLog.INDEX));
      events =
          EventStore.open(
              dataDirectory, options, clock, config.storage().committerThreads(), directories);
    } catch (LockObtainFailedException e) {
      throw new ConfigException(
          "data directory " + dataDirectory + " is in use by another Quarry process", e);
    }
    try {
      Map<String, MetricIndexOptions> metricOptions = new LinkedHashMap<>();
      for (String index : config.indexes()) {
        if (config.storage().isMetric(index)) {
          metricOptions.put(index, config.storage().metricOptions(index));
        }
      }
      MetricStore metrics =
          MetricStore.open(
              dataDirectory,
              metricOptions,
              clock,
              Duration.ofSeconds(config.storage().commitIntervalSeconds()));
      return new NodeStores(events, metrics);
    } catch (IOException | RuntimeException e) {
      FailedStart.close(e, events); // a failing close is suppressed: the metric store's failure
      throw e;
    }
  }
}
