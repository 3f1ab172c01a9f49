package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node's bound on compactions ahead of a roll ({@link CompactionPermits}): indexes whose
 * buckets fill at once share the permits; the others wait for their roll without compacting,
 * reported {@code rolling} and {@code due}, and roll once a permit is free. Before session 35 each
 * index compacted its full bucket at once (N indexes, N compactions).
 */
class RollCompactionsTest {
  private static final int INDEXES = 3;

  @TempDir Path data;

  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  @Test
  void indexesRollingAtOnceCompactOneAtATime() throws Exception {
    CompactionPermits node = new CompactionPermits(1);
    IndexOptions options =
        IndexOptions.builder()
            .commitInterval(Duration.ofMillis(200))
            .maxBucketEvents(5_000)
            .format(BucketFormat.BLOCKS)
            .compaction(new CompactionSettings(true, Duration.ofDays(1), 1L << 40))
            .build();
    CountDownLatch release = new CountDownLatch(1);
    List<CountDownLatch> entered = new ArrayList<>();
    List<IndexStore> stores = new ArrayList<>();
    try {
      for (int index = 0; index < INDEXES; index++) {
        CountDownLatch compacting = new CountDownLatch(1);
        entered.add(compacting);
        stores.add(
            new IndexStore(
                "i" + index,
                data.resolve("i" + index),
                options,
                scheduler,
                Clock.systemUTC(),
                FaultyDirectories.holdingCompactions("", compacting, release),
                node));
      }
      int started;
      List<String> firstStates = new ArrayList<>();
      List<Boolean> due = new ArrayList<>();
      try {
        for (IndexStore store : stores) {
          for (int segment = 0; segment < 3; segment++) {
            store.add(NumberedEvents.events(segment * 2_000, 2_000));
            store.commit();
          }
        }
        // 6,000 events each, over 5,000: the scheduled commits roll every index's bucket
        Timed.until(30, () -> stores.stream().noneMatch(RollCompactionsTest::notSwitched));
        Timed.until(30, () -> entered.stream().anyMatch(latch -> latch.getCount() == 0));
        Thread.sleep(1_500); // scheduled commits, each of which could start another compaction
        started = (int) entered.stream().filter(latch -> latch.getCount() == 0).count();
        for (IndexStore store : stores) {
          firstStates.add(store.buckets().getFirst().state());
          due.add(store.compaction().due());
        }
      } finally {
        release.countDown();
      }
      assertThat(started).as("compactions ahead of a roll started at once").isEqualTo(1);
      assertThat(firstStates).as("every full bucket waits for its roll").containsOnly("rolling");
      assertThat(due).as("every index's compaction is due").containsOnly(true);
      for (IndexStore store : stores) {
        Timed.until(60, () -> store.buckets().getFirst().state().equals("warm"));
        assertThat(store.buckets().getFirst().state()).as(store.name()).isEqualTo("warm");
        assertThat(store.compaction().settled()).as(store.name()).isTrue();
        Map<String, Integer> found = StoredRaws.of(store);
        assertThat(found).hasSize(6_000);
        assertThat(found.values()).allMatch(count -> count == 1);
        assertThat(StoredRaws.segmentLevels(store)).allMatch(level -> level.endsWith("compact"));
      }
    } finally {
      for (IndexStore store : stores) {
        store.close();
      }
    }
  }

  /** Whether the index's full bucket has not yet handed its writes to a new hot bucket. */
  private static boolean notSwitched(IndexStore store) {
    try {
      return store.buckets().size() < 2;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
