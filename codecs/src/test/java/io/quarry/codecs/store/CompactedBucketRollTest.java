package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A full bucket whose compaction ahead of its roll ended needs no permit of the node's ({@link
 * CompactionPermits}) to roll: its roll merges nothing. Another index's full bucket that took the
 * permit in the gap between the end of that compaction and the next commit must not hold the
 * compacted bucket back for its whole compaction (its index's size retention deferred meanwhile).
 */
class CompactedBucketRollTest {
  @RegisterExtension final StoreFixture stores = new StoreFixture();

  @Test
  void aCompactedBucketRollsWhileAnotherIndexHoldsThePermit() throws Exception {
    CompactionPermits node = new CompactionPermits(1);
    IndexOptions options =
        IndexOptions.builder()
            .maxBucketEvents(5_000)
            .format(BucketFormat.BLOCKS)
            .compaction(new CompactionSettings(true, Duration.ofDays(1), 1L << 40))
            .build();
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (IndexStore first = stores.open("first", options, FSDirectory::open, node);
        IndexStore second =
            stores.open(
                "second",
                options,
                FaultyDirectories.holdingCompactions("", entered, release),
                node)) {
      try {
        StoreFixture.fill(first, 0, 6_000);
        stores.scheduler().maintenance(0); // first fills: its compaction ahead takes the permit
        Timed.until(
            30, () -> first.compaction().compactions() != 0 && !first.compaction().running());
        assertThat(first.compaction().compactions()).as("first compacted ahead").isPositive();
        assertThat(first.buckets().getFirst().state()).isEqualTo("rolling");

        StoreFixture.fill(second, 0, 6_000);
        // second fills in the gap before first's next commit (on the base its compaction ahead
        // took the permit there, held in its merge)
        stores.scheduler().maintenance(1);
        stores.scheduler().maintenance(0); // first's next commit: nothing left to merge, it rolls
        assertThat(first.buckets().getFirst().state())
            .as("first's compacted bucket after its next commit")
            .isEqualTo("warm");
        stores.scheduler().maintenance(1); // second's next commit: the permit is free
        assertThat(entered.await(30, TimeUnit.SECONDS)).as("second compacts ahead").isTrue();
      } finally {
        release.countDown();
      }
      assertThat(StoredRaws.of(first)).hasSize(6_000);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!second.buckets().getFirst().state().equals("warm") && System.nanoTime() < deadline) {
        stores.scheduler().maintenance(1);
        Thread.sleep(20);
      }
      assertThat(second.buckets().getFirst().state()).isEqualTo("warm");
      assertThat(StoredRaws.of(second)).hasSize(6_000);
    }
  }
}
