package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A test's index {@code main} whose deferred compaction is forced and held (a test fixture): the
 * bucket is compacted as soon as it is idle for {@value #IDLE_MILLIS} ms (any fast byte is enough),
 * and the compaction's merge waits as it opens its first file until the test {@link #release}s it —
 * so the test reads the fast segments (the compaction started, the searchers still the fast ones),
 * then lets the compaction swap them for compact ones, while searching or after it {@link
 * #awaitCompacted}. Commits are the test's.
 */
final class HeldCompaction implements AutoCloseable {
  /** How long the bucket stays idle before its compaction starts. */
  static final long IDLE_MILLIS = 200;

  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
  private final CountDownLatch entered = new CountDownLatch(1);
  private final CountDownLatch released = new CountDownLatch(1);
  private final IndexStore store;

  /**
   * Opens {@code main} in {@code data} in {@code format}, blocks of {@code blockEvents} events,
   * index-time fields typed as {@code fieldTypes} says (the others keywords).
   */
  HeldCompaction(
      Path data, BucketFormat format, int blockEvents, Map<String, IndexedFieldType> fieldTypes)
      throws Exception {
    IndexOptions options =
        IndexOptions.builder()
            .commitInterval(Duration.ofHours(1)) // commits are the test's
            .format(format)
            .blockEvents(blockEvents)
            .fieldTypes(fieldTypes)
            .compaction(new CompactionSettings(true, Duration.ofMillis(IDLE_MILLIS), 1, 1L << 40))
            .build();
    this.store =
        new IndexStore(
            "main",
            data.resolve("main"),
            options,
            scheduler,
            Clock.systemUTC(),
            FaultyDirectories.holding(FaultyDirectories::compaction, entered, released));
  }

  IndexStore store() {
    return store;
  }

  /**
   * Waits until the compaction started and holds at its first file: the segments searches see are
   * still every fast one.
   */
  void awaitHeld() throws Exception {
    assertThat(entered.await(60, TimeUnit.SECONDS)).as("the idle bucket's compaction").isTrue();
    assertThat(store.compaction().running()).isTrue();
    assertThat(StoredRaws.segmentLevels(store)).allMatch(level -> level.endsWith(" fast"));
  }

  /** Lets the held compaction go on. */
  void release() {
    released.countDown();
  }

  /** Waits until the compaction ended and searches see compact segments only. */
  void awaitCompacted() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!store.compaction().settled() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(store.compaction().settled()).as("%s", store.compaction()).isTrue();
    assertThat(StoredRaws.segmentLevels(store)).allMatch(level -> level.endsWith(" compact"));
  }

  @Override
  public void close() throws Exception {
    released.countDown(); // a failing test leaves no merge waiting
    try {
      store.close();
    } finally {
      scheduler.shutdownNow();
    }
  }
}
