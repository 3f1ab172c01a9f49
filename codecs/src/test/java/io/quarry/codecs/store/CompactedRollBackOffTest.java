package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review c36 of compact2: the compaction back-off after a failed compaction ({@link
 * IndexCompaction#backingOff}) is meant to hold back the next compaction's merges; a full bucket
 * whose compaction ahead of its roll already ended has nothing left to merge, its roll only
 * commits. compact2 held its roll back too, for the whole back-off (one minute, doubling up to an
 * hour), the bucket keeping its node permit meanwhile and its index's hot bucket going on past its
 * limit.
 */
class CompactedRollBackOffTest {
  @TempDir Path data;

  private final ManualScheduler scheduler = new ManualScheduler();

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  @Test
  void aCompactedFullBucketRollsDuringABackOffAnotherBucketCaused() throws Exception {
    AtomicBoolean failCompactions = new AtomicBoolean();
    IndexOptions options =
        IndexOptions.builder()
            .maxBucketEvents(5_000)
            .format(BucketFormat.BLOCKS)
            .compaction(new CompactionSettings(true, Duration.ZERO, 1L << 40))
            .build();
    try (IndexStore store =
        new IndexStore(
            "main",
            data.resolve("main"),
            options,
            scheduler,
            Clock.systemUTC(),
            FaultyDirectories.failing(
                context -> FaultyDirectories.compaction(context) && failCompactions.get()),
            new CompactionPermits(2))) {
      for (int segment = 0; segment < 3; segment++) {
        store.add(NumberedEvents.events(segment * 2_000, 2_000));
        store.commit();
      }
      scheduler.maintenance(0); // the bucket fills and compacts ahead of its roll
      Timed.until(30, () -> store.compaction().compactions() > 0 && !store.compaction().running());
      assertThat(store.compaction().compactions()).as("compacted ahead of its roll").isPositive();
      assertThat(store.buckets()).extracting(BucketInfo::state).containsExactly("rolling", "hot");

      // the hot bucket's idle compaction (the node's second permit) fails: a back-off starts
      failCompactions.set(true);
      store.add(NumberedEvents.events(6_000, 2_000)); // no commit: a commit would roll it now
      scheduler.compaction(0); // flushes them, then its merge fails
      Timed.until(30, () -> hotWriterFailed(store));
      assertThat(hotWriterFailed(store)).as("the hot bucket's idle compaction failed").isTrue();

      scheduler.maintenance(0); // recovers the hot bucket (the back-off starts), then rolls
      assertThat(store.buckets())
          .as("the compacted full bucket's roll merges nothing")
          .extracting(BucketInfo::state)
          .containsExactly("warm", "hot");
      assertThat(StoredRaws.of(store)).hasSize(8_000).allSatisfy((raw, n) -> assertThat(n).isOne());
    }
  }

  /** Whether listing the buckets meets a failed writer (a listing recovers none). */
  private static boolean hotWriterFailed(IndexStore store) {
    try {
      store.buckets();
      return false;
    } catch (java.io.IOException failed) {
      return true;
    }
  }
}
