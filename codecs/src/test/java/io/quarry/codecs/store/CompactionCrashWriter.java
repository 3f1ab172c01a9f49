package io.quarry.codecs.store;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;

/**
 * The child process of {@link CompactionCrashTest}: adds {@code batches} batches of 500 numbered
 * events from {@code first} to the index {@code main}, committing after each (a segment each),
 * printing {@code ACK <last number>} once a batch is durable; then the index is idle, its deferred
 * compaction starts, and its merge stops at its third file, printing {@code COMPACTING}, to be
 * killed there.
 */
public final class CompactionCrashWriter {
  static final int BATCH = 500;

  private CompactionCrashWriter() {}

  public static void main(String[] args) throws Exception {
    Path data = Path.of(args[0]);
    int first = Integer.parseInt(args[1]);
    int batches = Integer.parseInt(args[2]);
    BucketFormat format = BucketFormat.fromName(args[3]);
    CountDownLatch compacting = new CountDownLatch(1);
    BucketDirectories directories =
        FaultyDirectories.holdingAt(
            FaultyDirectories::compaction,
            3,
            compacting,
            new CountDownLatch(1)); // never released: the process is killed there
    IndexOptions options =
        IndexOptions.builder()
            .commitInterval(Duration.ofHours(1))
            .format(format)
            .compaction(new CompactionSettings(true, Duration.ofMillis(100), 1L << 40))
            .build();
    IndexStore store =
        new IndexStore(
            "main",
            data.resolve("main"),
            options,
            Executors.newSingleThreadScheduledExecutor(),
            Clock.systemUTC(),
            directories);
    for (int batch = 0; batch < batches; batch++) {
      int from = first + batch * BATCH;
      store.add(NumberedEvents.events(from, BATCH));
      System.out.println("ACK " + (from + BATCH - 1));
      System.out.flush();
      store.commit();
    }
    compacting.await();
    System.out.println("COMPACTING");
    System.out.flush();
    Thread.currentThread().join();
  }
}
