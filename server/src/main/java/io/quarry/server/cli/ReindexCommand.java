package io.quarry.server.cli;

import io.quarry.codecs.store.BucketConversion;
import io.quarry.codecs.store.BucketFormat;
import io.quarry.codecs.store.EventStore;
import io.quarry.codecs.store.IndexOptions;
import io.quarry.server.config.QuarryConfig;
import io.quarry.server.sourcetype.Sourcetypes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.lucene.store.LockObtainFailedException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code quarry reindex}: converts, offline, the buckets an event index wrote in the event layout
 * to the block layout its configuration now names ({@code storage.format}, {@code blocks} by
 * default, or {@code storage.indexes.<name>.format}).
 */
@Command(
    name = "reindex",
    mixinStandardHelpOptions = true,
    description = {
      "Rewrite the old buckets of event indexes in the block layout (stop the server first).",
      "A bucket keeps the layout it was written in; for an index whose layout is blocks (the",
      "default of storage.format), this converts its buckets of the event layout (one Lucene",
      "document per event), the hot one included, so every bucket is smaller and searched the",
      "same way. Each bucket is written beside the old one, checked (count, time bounds, last",
      "sequence number) and swapped in whole; an interrupted run leaves each bucket old or new,",
      "never missing.",
      "Exit status 0 when every bucket was converted, 1 on an error, 2 on a wrong index name."
    })
final class ReindexCommand implements Callable<Integer> {
  @Mixin ConfigOptions files;

  @Parameters(
      paramLabel = "INDEX",
      arity = "0..*",
      description = "The indexes to convert (default: every index whose layout is blocks).")
  List<String> indexes = new ArrayList<>();

  /**
   * The event store a conversion runs on: the indexes {@code options} names, with the server's
   * {@code storage.committerThreads} (its periodic commits, rolls and compaction checks run while
   * the conversion does).
   */
  static EventStore open(QuarryConfig config, Path data, Map<String, IndexOptions> options)
      throws java.io.IOException {
    return EventStore.open(
        data, options, java.time.Clock.systemUTC(), config.storage().committerThreads());
  }

  /** How often, at most, progress is printed while a bucket converts. */
  private static final long PROGRESS_NANOS = 2_000_000_000L;

  @Override
  public Integer call() throws Exception {
    QuarryConfig config = files.load(Map.of());
    Path data = Path.of(config.dataDir()).toAbsolutePath().normalize();
    Sourcetypes sourcetypes = config.compiledSourcetypes();
    List<String> chosen = indexes.isEmpty() ? blockIndexes(config) : indexes;
    for (String name : chosen) {
      String problem = problem(config, name);
      if (problem != null) {
        System.err.println("quarry reindex: " + problem);
        return 2;
      }
    }
    if (chosen.isEmpty()) {
      System.out.println(
          "No event index has the blocks layout (storage.format, storage.indexes.<name>.format);"
              + " nothing to convert.");
      return 0;
    }
    Map<String, IndexOptions> options = new LinkedHashMap<>();
    for (String name : chosen) {
      options.put(name, config.indexOptions(name, sourcetypes));
    }
    long buckets = 0;
    long events = 0;
    long before = 0;
    long after = 0;
    try (EventStore store = open(config, data, options)) {
      for (String name : chosen) {
        long[] printed = {System.nanoTime()};
        List<BucketConversion.Result> results =
            store
                .index(name)
                .convertToBlocks(
                    (bucket, written) -> {
                      long now = System.nanoTime();
                      if (now - printed[0] >= PROGRESS_NANOS) {
                        printed[0] = now;
                        System.out.printf(
                            Locale.ROOT,
                            "%-20s bucket %-6d %,d events written...%n",
                            name,
                            bucket,
                            written);
                      }
                    });
        for (BucketConversion.Result result : results) {
          System.out.printf(
              Locale.ROOT,
              "%-20s bucket %-6d converted: %,d events, %s -> %s%n",
              name,
              result.bucket(),
              result.events(),
              ByteBreakdownRows.megabytes(result.bytesBefore()),
              ByteBreakdownRows.megabytes(result.bytesAfter()));
          buckets++;
          events += result.events();
          before += result.bytesBefore();
          after += result.bytesAfter();
        }
        if (results.isEmpty()) {
          System.out.printf(Locale.ROOT, "%-20s every bucket is already in blocks%n", name);
        }
      }
    } catch (LockObtainFailedException e) {
      System.err.println(
          "quarry reindex: data directory "
              + data
              + " is in use by a running Quarry; stop the server first");
      return 1;
    }
    System.out.printf(
        Locale.ROOT,
        "%d buckets converted, %,d events, %s -> %s%n",
        buckets,
        events,
        ByteBreakdownRows.megabytes(before),
        ByteBreakdownRows.megabytes(after));
    return 0;
  }

  /** Every event index whose configuration names the block layout. */
  private static List<String> blockIndexes(QuarryConfig config) {
    return config.indexes().stream()
        .filter(name -> !config.storage().isMetric(name))
        .filter(name -> config.storage().options(name).format() == BucketFormat.BLOCKS)
        .toList();
  }

  /** Why {@code name} cannot be converted, or null. */
  private static String problem(QuarryConfig config, String name) {
    if (!config.indexes().contains(name)) {
      return "no index '" + name + "' in the configuration's indexes";
    }
    if (config.storage().isMetric(name)) {
      return "index '" + name + "' is a metric index; only event indexes have layouts";
    }
    if (config.storage().options(name).format() != BucketFormat.BLOCKS) {
      return "index '"
          + name
          + "' is configured for the events layout: set storage.indexes."
          + name
          + ".format (or storage.format) to blocks first (new buckets follow the setting, this"
          + " converts the old ones)";
    }
    return null;
  }
}
