package io.quarry.benchmarks.e2e;

import io.quarry.codecs.store.Event;
import io.quarry.codecs.store.EventStore;
import io.quarry.codecs.store.IndexOptions;
import io.quarry.server.config.ConfigLoader;
import io.quarry.server.config.QuarryConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.lucene.util.IOUtils;

/**
 * The storage settings the server this harness starts gives an index, as the server's own code
 * resolves them — not the options as given, where "not given" would mean whatever default the jar
 * at hand has: the format, the events a block holds, the journal's compression (from the
 * configuration the harness writes, read by the server's configuration loader), and the layout
 * version of the buckets it makes ({@code blocks 3}: term filters; {@code blocks 2}: postings),
 * which no setting of the configuration holds (a system property and the build's default decide
 * it): so it is asked of the build's event store itself, which makes a bucket in a scratch
 * directory under this JVM's {@code quarry.storage.*} properties (those the server gets too) and
 * says what it recorded — its {@code BucketInfo#layout}, what the server's {@code GET
 * /api/v1/indexes} lists ({@link StoreShape}) — before any server runs.
 *
 * @param layout the layout new buckets record ({@link StoreShape.Bucket#layout})
 */
record IngestSettings(String format, int blockEvents, String journalCompression, String layout) {
  /**
   * What a server on {@code config} (the text of its {@code quarry.yml}) gives {@code index}; makes
   * and deletes a scratch directory under {@code scratchParent}.
   */
  static IngestSettings resolve(String config, String index, Path scratchParent)
      throws IOException {
    Path scratch = Files.createTempDirectory(scratchParent, "settings-");
    try {
      Path file = scratch.resolve("quarry.yml");
      Files.writeString(file, config);
      QuarryConfig resolved = ConfigLoader.load(file, Map.of(), Map.of());
      IndexOptions options = resolved.indexOptions(index, resolved.compiledSourcetypes());
      return new IngestSettings(
          options.format().configName(),
          options.blockEvents(),
          options.journalCompression().configName(),
          layoutOfNewBuckets(index, options, scratch.resolve("store")));
    } finally {
      IOUtils.rm(scratch);
    }
  }

  /** For the JSON report. */
  Map<String, Object> report() {
    Map<String, Object> report = new java.util.LinkedHashMap<>();
    report.put("format", format);
    report.put("blockEvents", blockEvents);
    report.put("journalCompression", journalCompression);
    report.put("layout", layout);
    return report;
  }

  /** The layout a bucket of {@code index} made under {@code options} in {@code data} records. */
  private static String layoutOfNewBuckets(String index, IndexOptions options, Path data)
      throws IOException {
    try (EventStore store = EventStore.open(data, Map.of(index, options))) {
      store
          .index(index)
          .add(List.of(new Event(1_000_000L, "probe", "harness", "probe", "probe", Map.of())));
      store.index(index).commit();
      List<io.quarry.codecs.store.BucketInfo> buckets = store.index(index).buckets();
      if (buckets.isEmpty()) {
        throw new IOException("the event store made no bucket for one event in " + data);
      }
      // what GET /api/v1/indexes lists as the bucket's layout, from the same code
      return buckets.getFirst().layout();
    }
  }
}
