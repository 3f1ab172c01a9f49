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
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compaction ahead of a scheduled roll writes the roll's own segments (at most {@link
 * CompactionMergePolicy#ROLL_SEGMENTS}, every one compact): the roll's forced merge, under the
 * index's commit lock, then writes nothing. Before session 35 the compaction ahead merged only the
 * fast segments, and a bucket already holding several compact segments (one per idle compaction)
 * was merged once more by the roll.
 */
class RollOnceTest {
  @TempDir Path data;

  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  @Test
  void theRollAfterItsCompactionMergesNothing() throws Exception {
    AtomicInteger rollMergeFiles = new AtomicInteger();
    BucketDirectories directories =
        FaultyDirectories.countingRollMerges(
            rollMergeFiles, context -> false, new CountDownLatch(1), new CountDownLatch(0));
    IndexOptions options =
        IndexOptions.builder()
            .commitInterval(Duration.ofMillis(200))
            .maxBucketEvents(12_000)
            .format(BucketFormat.BLOCKS)
            .compaction(new CompactionSettings(true, Duration.ofMillis(100), 1L << 40))
            .build();
    try (IndexStore store =
        new IndexStore(
            "main", data.resolve("main"), options, scheduler, Clock.systemUTC(), directories)) {
      // five idle compactions, each leaving one compact segment (too few and too small for the
      // natural merges to join them)
      for (int round = 0; round < 5; round++) {
        long before = store.compaction().compactions();
        store.add(NumberedEvents.events(round * 2_000, 2_000));
        store.commit();
        Timed.until(
            30, () -> store.compaction().compactions() != before && !store.compaction().running());
        assertThat(store.compaction().compactions())
            .as("round %s compacted", round)
            .isGreaterThan(before);
      }
      assertThat(StoredRaws.segmentLevels(store))
          .as("compact segments before the roll")
          .hasSizeGreaterThan(CompactionMergePolicy.ROLL_SEGMENTS);
      store.add(NumberedEvents.events(10_000, 2_000)); // full: a scheduled commit rolls it
      Timed.until(
          60,
          () -> store.buckets().size() >= 2 && store.buckets().getFirst().state().equals("warm"));
      assertThat(store.buckets().getFirst().state()).isEqualTo("warm");
      assertThat(store.buckets().getFirst().events()).isEqualTo(12_000);
      assertThat(rollMergeFiles.get()).as("files the roll's forced merge wrote").isZero();
      assertThat(StoredRaws.segmentLevels(store))
          .as("the warm bucket's segments: few, and compact")
          .hasSizeLessThanOrEqualTo(CompactionMergePolicy.ROLL_SEGMENTS)
          .allMatch(level -> level.endsWith("compact"));
      Map<String, Integer> found = StoredRaws.of(store);
      assertThat(found).hasSize(12_000);
      assertThat(found.values()).allMatch(count -> count == 1);
    }
  }

  /**
   * A natural merge of fast segments running when the bucket fills: the compaction ahead of the
   * roll takes the other fast segments, and the roll waits for that merge too and for the
   * compaction of its output. Before session 35 the roll started once the compaction's own merges
   * ended, so its forced merge waited for the natural merge and then compacted that output under
   * the index's commit lock.
   */
  @Test
  void theRollWaitsForANaturalMergeAndItsCompaction() throws Exception {
    AtomicInteger rollMergeFiles = new AtomicInteger();
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    BucketDirectories directories =
        FaultyDirectories.countingRollMerges(
            rollMergeFiles,
            context ->
                context.context() == org.apache.lucene.store.IOContext.Context.MERGE
                    && context.mergeInfo().mergeMaxNumSegments() == -1, // a natural merge
            entered,
            release);
    IndexOptions options =
        IndexOptions.builder()
            .commitInterval(Duration.ofMillis(200))
            .maxBucketEvents(100_000)
            .format(BucketFormat.BLOCKS)
            .compaction(new CompactionSettings(true, Duration.ofDays(1), 1L << 40))
            .build();
    try (IndexStore store =
        new IndexStore(
            "main", data.resolve("main"), options, scheduler, Clock.systemUTC(), directories)) {
      int added = 0;
      try {
        // small segments, one a commit, until the tiered policy merges some (held at its start)
        while (entered.getCount() > 0 && added < 20_000) {
          store.add(NumberedEvents.events(added, 200));
          added += 200;
          store.commit();
        }
        assertThat(entered.await(30, TimeUnit.SECONDS)).as("a natural merge started").isTrue();
        store.add(NumberedEvents.events(added, 100_000 - added)); // full: a commit rolls it
        added = 100_000;
        Timed.until(30, () -> store.buckets().size() >= 2 && !store.compaction().running());
        Thread.sleep(1_000); // scheduled commits, each of which may roll the waiting bucket
        assertThat(store.buckets().getFirst().state()).isEqualTo("rolling");
      } finally {
        release.countDown();
      }
      Timed.until(60, () -> store.buckets().getFirst().state().equals("warm"));
      assertThat(store.buckets().getFirst().state()).isEqualTo("warm");
      assertThat(rollMergeFiles.get()).as("files the roll's forced merge wrote").isZero();
      assertThat(StoredRaws.segmentLevels(store))
          .hasSizeLessThanOrEqualTo(CompactionMergePolicy.ROLL_SEGMENTS)
          .allMatch(level -> level.endsWith("compact"));
      Map<String, Integer> found = StoredRaws.of(store);
      assertThat(found).hasSize(added);
      assertThat(found.values()).allMatch(count -> count == 1);
    }
  }
}
