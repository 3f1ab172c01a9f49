package io.quarry.benchmarks;

import io.quarry.codecs.store.BucketFormat;
import io.quarry.codecs.store.BucketInfo;
import io.quarry.codecs.store.CompactionSettings;
import io.quarry.codecs.store.CompactionStatus;
import io.quarry.codecs.store.Event;
import io.quarry.codecs.store.EventStore;
import io.quarry.codecs.store.IndexOptions;
import io.quarry.codecs.store.IndexStore;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The CPU of a scheduled roll of a deferred-compaction bucket (docs/design/block-index.md, "The
 * roll once"): a log's lines (one event each, times in written order) go into one block-layout
 * index whose bucket holds them all, in {@code bursts} parts with an idle gap after each but the
 * last (each gap ends in an idle compaction, leaving one compact segment, as a bursty ingest does);
 * the last part fills the bucket, so the next commit rolls it. The figure is the whole JVM's CPU
 * from the last write until the bucket is warm and the index settled (its compaction ahead of the
 * roll and the roll), with the compactions' count and bytes beside it.
 *
 * <pre>
 * java -cp 'codecs/target/classes:benchmarks/target/benchmarks.jar' \
 *     benchmarks/src/main/java/io/quarry/benchmarks/RollCpu.java access.log [bursts] [batch]
 * </pre>
 */
public final class RollCpu {
  private RollCpu() {}

  public static void main(String[] args) throws Exception {
    List<String> lines = Files.readAllLines(Path.of(args[0]));
    int bursts = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    int batch = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
    IndexOptions options =
        IndexOptions.builder()
            .format(BucketFormat.BLOCKS)
            .commitInterval(Duration.ofMillis(500))
            .maxBucketEvents(lines.size())
            .compaction(new CompactionSettings(true, Duration.ofMillis(500), 1, 1L << 30))
            .build();
    Path directory = Files.createTempDirectory("quarry-roll-cpu");
    try (EventStore store = EventStore.open(directory, Map.of("main", options))) {
      IndexStore index = store.index("main");
      int part = (lines.size() + bursts - 1) / bursts;
      long ingest0 = processCpuNanos();
      for (int from = 0; from < lines.size(); from += batch) {
        int to = Math.min(lines.size(), from + batch);
        List<Event> events = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
          events.add(
              new Event(
                  i * 1000L, lines.get(i), "bench", "access.log", "access_combined", Map.of()));
        }
        store.write("main", events);
        if (to < lines.size() && to / part != from / part) { // a burst ended: idle until compact
          awaitSettled(index, false);
        }
      }
      long roll0 = processCpuNanos();
      long wall0 = System.nanoTime();
      CompactionStatus before = index.compaction();
      awaitSettled(index, true);
      long roll = processCpuNanos() - roll0;
      CompactionStatus after = index.compaction();
      System.out.printf(
          "%,d events in %d bursts: ingest and idle compactions %.1f s CPU; from the last write"
              + " until rolled and settled %.2f s CPU (%.1f s wall), compactions %d -> %d,"
              + " compacted bytes %,d -> %,d%n",
          lines.size(),
          bursts,
          (roll0 - ingest0) / 1e9,
          roll / 1e9,
          (System.nanoTime() - wall0) / 1e9,
          before.compactions(),
          after.compactions(),
          before.compactedBytes(),
          after.compactedBytes());
      for (BucketInfo bucket : index.buckets()) {
        System.out.println("  " + bucket);
      }
    } finally {
      org.apache.lucene.util.IOUtils.rm(directory);
    }
  }

  /** Waits until the index is settled and, with {@code rolled}, its first bucket warm. */
  private static void awaitSettled(IndexStore index, boolean rolled) throws Exception {
    Thread.sleep(600);
    while (!index.compaction().settled()
        || rolled && !index.buckets().getFirst().state().equals("warm")) {
      Thread.sleep(20);
    }
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
