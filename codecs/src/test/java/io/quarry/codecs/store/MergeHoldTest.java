package io.quarry.codecs.store;

import static io.quarry.codecs.store.NumberedEvents.events;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Natural merges of a hot bucket's fast segments held back while events are added ({@link
 * CompactionMergePolicy#HELD_SEGMENTS}): Lucene's tiered policy alone keeps about ten segments of
 * this size; held, every flushed segment stays until the cap, past which the tiered merges run;
 * once the bucket is idle and no compaction is due the held merges run.
 */
class MergeHoldTest {
  @TempDir Path data;

  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  /** Compaction never due by size; idle after {@code idle}, when held merges run. */
  private IndexStore open(Duration idle) throws Exception {
    CompactionSettings compaction = new CompactionSettings(true, idle, 1L << 40, 1L << 40);
    return DeferredCompactionTest.open(
        data, scheduler, BucketFormat.BLOCKS, compaction, FSDirectory::open);
  }

  /**
   * Adds {@code segments} segments of 200 events, one commit each; the segment count after each.
   */
  private static int[] addSegments(IndexStore store, int from, int segments) throws Exception {
    int[] counts = new int[segments];
    for (int segment = 0; segment < segments; segment++) {
      store.add(events((from + segment) * 200, 200));
      store.commit();
      counts[segment] = StoredRaws.segmentLevels(store).size();
    }
    return counts;
  }

  @Test
  void fastSegmentsAreNotMergedWhileAddsGoOnAndAreOnceTheBucketIsIdle() throws Exception {
    try (IndexStore store = open(Duration.ofSeconds(1))) {
      int[] counts = addSegments(store, 0, 30);
      assertThat(counts[29]).as("held: every flushed segment").isEqualTo(30);
      assertThat(StoredRaws.segmentLevels(store)).allMatch(level -> level.equals("1 fast"));

      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (StoredRaws.segmentLevels(store).size() >= 30 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(StoredRaws.segmentLevels(store).size())
          .as("merged once idle, no compaction due")
          .isLessThan(20);
      assertThat(StoredRaws.segmentLevels(store)).allMatch(level -> level.endsWith(" fast"));
      assertThat(StoredRaws.of(store))
          .hasSize(30 * 200)
          .allSatisfy((raw, n) -> assertThat(n).isOne());
    }
  }

  @Test
  void theHeldSegmentsAreCapped() throws Exception {
    try (IndexStore store = open(Duration.ofHours(1))) {
      int segments = CompactionMergePolicy.HELD_SEGMENTS + 30;
      int[] counts = addSegments(store, 0, segments);
      assertThat(counts[CompactionMergePolicy.HELD_SEGMENTS - 1])
          .as("held up to the cap")
          .isEqualTo(CompactionMergePolicy.HELD_SEGMENTS);
      // past the cap the tiered merges run (in the background: a few flushes may pass meanwhile)
      assertThat(java.util.Arrays.stream(counts).max().getAsInt())
          .isLessThanOrEqualTo(CompactionMergePolicy.HELD_SEGMENTS + 5);
      assertThat(counts[segments - 1]).isLessThan(segments);
      assertThat(StoredRaws.of(store))
          .hasSize(segments * 200)
          .allSatisfy((raw, n) -> assertThat(n).isOne());
    }
  }
}
