package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.IOContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A roll whose forced merge merges nothing (compaction inline, a full bucket of fewer segments than
 * {@link CompactionMergePolicy#ROLL_SEGMENTS}) compacts nothing, so it needs none of the node's
 * {@link CompactionPermits}: it rolls at once while another index's roll merges on the node's only
 * permit. Taking a permit for it leaves the bucket {@code rolling} and its index's hot bucket
 * growing (then, past {@code maxWaitingBuckets}, refusing adds) for a roll that costs one commit.
 */
class InlineRollNothingToMergeTest {
  // one scheduler each: the first index's maintenance stalls in its roll while the second's runs
  @RegisterExtension final StoreFixture firstStores = new StoreFixture();
  @RegisterExtension final StoreFixture secondStores = new StoreFixture();

  private static final IndexOptions INLINE =
      IndexOptions.builder().maxBucketEvents(10_000).compaction(CompactionSettings.INLINE).build();

  @Test
  void aRollThatMergesNothingRollsWhileAnotherIndexsRollHoldsThePermit() throws Exception {
    CompactionPermits node = new CompactionPermits(1);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService rolling = Executors.newSingleThreadExecutor();
    try (IndexStore first =
            firstStores.open(
                "first",
                INLINE,
                FaultyDirectories.holding(
                    context -> context.context() == IOContext.Context.MERGE, entered, release),
                node);
        IndexStore second = secondStores.open("second", INLINE, FSDirectory::open, node)) {
      StoreFixture.fill(first, 0, 12_000); // six segments: the roll's forceMerge(4) merges
      second.add(NumberedEvents.events(0, 12_000)); // one segment: its roll merges nothing
      second.commit();
      Future<?> firstRoll;
      try {
        firstRoll = rolling.submit(() -> firstStores.scheduler().maintenance(0));
        assertThat(entered.await(60, TimeUnit.SECONDS))
            .as("the first index's roll merges (held)")
            .isTrue();

        secondStores.scheduler().maintenance(0); // full: its roll merges nothing
        assertThat(states(second))
            .as("the second index's one-segment bucket rolls without a permit")
            .containsExactly("warm", "hot");
        assertThat(firstRoll.isDone()).as("the first roll still merges").isFalse();
      } finally {
        release.countDown();
      }
      firstRoll.get(60, TimeUnit.SECONDS);
      assertThat(states(first)).containsExactly("warm", "hot");
      assertThat(second.count()).isEqualTo(12_000);
    } finally {
      rolling.shutdownNow();
    }
  }

  private static List<String> states(IndexStore store) throws Exception {
    return store.buckets().stream().map(BucketInfo::state).toList();
  }
}
