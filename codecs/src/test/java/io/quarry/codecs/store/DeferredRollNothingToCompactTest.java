package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A full bucket whose compaction is deferred and that has nothing left to compact (an idle
 * compaction made its segments compact while it was hot, and they are few) rolls at its commit
 * while another index's compaction holds the node's only {@link CompactionPermits} permit: the
 * compaction ahead of its roll would merge nothing. Before, the roll asked for a permit before it
 * looked at the bucket's fast bytes and this test failed: the bucket stayed {@code rolling}, its
 * index's hot bucket taking events past its limit, for a roll that only commits.
 */
class DeferredRollNothingToCompactTest {
  @RegisterExtension final StoreFixture stores = new StoreFixture();

  private static final int EVENTS = 12_000;

  private static IndexOptions deferred(int maxBucketEvents) {
    return IndexOptions.builder()
        .maxBucketEvents(maxBucketEvents)
        .maxHotAge(Duration.ofDays(1))
        .compaction(new CompactionSettings(true, Duration.ofMillis(1), 1L << 40))
        .build();
  }

  @Test
  void aCompactedFullBucketRollsWhileAnotherIndexHoldsThePermit() throws Exception {
    CompactionPermits node = new CompactionPermits(1);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (IndexStore quiet = stores.open("quiet", deferred(EVENTS), FSDirectory::open, node);
        IndexStore busy =
            stores.open(
                "busy",
                deferred(1_000_000),
                FaultyDirectories.holdingCompactions("", entered, release),
                node)) {
      try {
        quiet.add(NumberedEvents.events(0, EVENTS)); // full, but no scheduled commit rolled it yet
        quiet.commit();
        Thread.sleep(5); // idle past the 1 ms of its settings
        Timed.until(
            60,
            () -> {
              stores.scheduler().compaction(0); // starts the idle compaction, then shows it
              return quiet.compaction().compactions() > 0 && !quiet.compaction().running();
            });
        assertThat(quiet.compaction().compactions()).as("compacted while hot").isPositive();
        assertThat(quiet.compaction().pendingBytes()).as("no fast bytes left").isZero();
        quiet.commit(); // its last commit holds the compact segment

        busy.add(NumberedEvents.events(0, 1_000));
        busy.commit();
        Thread.sleep(5);
        stores.scheduler().compaction(1); // busy's idle compaction takes the permit, and is held
        assertThat(entered.await(60, TimeUnit.SECONDS)).as("busy's compaction runs").isTrue();

        stores.scheduler().maintenance(0); // quiet is full: its roll would merge nothing
        assertThat(states(quiet))
            .as("the compacted bucket rolls while busy's compaction holds the permit")
            .containsExactly("warm", "hot");
        assertThat(quiet.count()).isEqualTo(EVENTS);
      } finally {
        release.countDown();
      }
    }
  }

  private static List<String> states(IndexStore store) throws Exception {
    return store.buckets().stream().map(BucketInfo::state).toList();
  }
}
