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
 * A roll that compacts (compaction inline: its forced merge under the commit lock) takes one of the
 * node's {@link CompactionPermits}, as a deferred compaction does: while one index's inline roll
 * merges on the node's only permit, another index's full bucket waits for its roll ({@code
 * rolling}, its hot bucket taking the events) and rolls at its next commit once the permit is free.
 * Before, each index's roll merged at once on its own committer, unbounded, and this test failed:
 * the second index's bucket rolled while the first's roll still merged.
 */
class InlineRollPermitTest {
  // one scheduler each: the first index's maintenance stalls in its roll while the second's runs
  @RegisterExtension final StoreFixture firstStores = new StoreFixture();
  @RegisterExtension final StoreFixture secondStores = new StoreFixture();

  private static final IndexOptions INLINE =
      IndexOptions.builder().maxBucketEvents(10_000).compaction(CompactionSettings.INLINE).build();

  @Test
  void inlineRollsOfTwoIndexesMergeOneAtATimeOnOnePermit() throws Exception {
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
      StoreFixture.fill(second, 0, 12_000);
      Future<?> firstRoll;
      try {
        firstRoll = rolling.submit(() -> firstStores.scheduler().maintenance(0));
        assertThat(entered.await(60, TimeUnit.SECONDS))
            .as("the first index's roll merges (held)")
            .isTrue();

        secondStores.scheduler().maintenance(0); // full: its roll finds no permit free
        assertThat(states(second))
            .as("the second index's full bucket waits for its roll; a new hot bucket takes events")
            .containsExactly("rolling", "hot");
        second.add(NumberedEvents.events(12_000, 100));
        assertThat(firstRoll.isDone()).as("the first roll still merges").isFalse();
      } finally {
        release.countDown();
      }
      firstRoll.get(60, TimeUnit.SECONDS);
      assertThat(states(first)).containsExactly("warm", "hot");

      secondStores.scheduler().maintenance(0); // the permit is free: the waiting bucket rolls
      assertThat(states(second)).containsExactly("warm", "hot");
      assertThat(second.count()).isEqualTo(12_100);
    } finally {
      rolling.shutdownNow();
    }
  }

  /**
   * A full bucket whose inline roll found no permit free rolls at its index's compaction check
   * (every second) once the permit is free, not only at its next commit ({@code commitInterval}, 10
   * s by default), while its index's hot bucket grows past its limit. Before, the compaction check
   * started only deferred compactions and this test failed: the bucket stayed {@code rolling}.
   */
  @Test
  void aWaitingInlineRollRollsAtTheCompactionCheckOnceThePermitIsFree() throws Exception {
    CompactionPermits node = new CompactionPermits(1);
    try (IndexStore waiting = secondStores.open("waiting", INLINE, FSDirectory::open, node)) {
      StoreFixture.fill(waiting, 0, 12_000); // six segments: its roll's forceMerge(4) merges
      try (java.io.Closeable held = node.hold()) {
        secondStores.scheduler().maintenance(0); // full: its roll finds no permit free
        assertThat(states(waiting)).containsExactly("rolling", "hot");
        secondStores.scheduler().compaction(0); // still no permit: nothing rolls
        assertThat(states(waiting)).containsExactly("rolling", "hot");
      }
      secondStores.scheduler().compaction(0); // the permit is free: no commit runs
      assertThat(states(waiting))
          .as("the waiting bucket rolled at the compaction check")
          .containsExactly("warm", "hot");
      assertThat(waiting.count()).isEqualTo(12_000);
    }
  }

  private static List<String> states(IndexStore store) throws Exception {
    return store.buckets().stream().map(BucketInfo::state).toList();
  }
}
