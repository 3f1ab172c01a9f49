package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * At most {@code maxWaitingBuckets} full buckets of an index wait for their roll: past that the hot
 * bucket does not turn full too at twice its limit, and from twice its event limit on the index
 * refuses adds ({@link IndexBusyException}, the server's 503) until a waiting bucket rolled. Before
 * commit2 every overrun hot bucket joined the waiting ones, so their number grew without bound
 * while ingest outran compaction.
 */
class WaitingBucketBoundTest {
  @RegisterExtension final StoreFixture stores = new StoreFixture();

  private IndexStore store(String name, BucketDirectories directories, CompactionPermits node)
      throws java.io.IOException {
    IndexOptions options =
        IndexOptions.builder()
            .maxBucketEvents(5_000)
            .maxHotAge(Duration.ofHours(1))
            .format(BucketFormat.BLOCKS)
            .compaction(new CompactionSettings(true, Duration.ofDays(1), 1L << 40))
            .maxWaitingBuckets(1)
            .build();
    return stores.open(name, options, directories, node);
  }

  @Test
  void pastItsWaitingBucketsAnIndexRefusesEventsUntilOneRolled() throws Exception {
    CompactionPermits node = new CompactionPermits(1);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (IndexStore busy =
            store("busy", FaultyDirectories.holdingCompactions("", entered, release), node);
        IndexStore index = store("main", FSDirectory::open, node)) {
      try {
        StoreFixture.fill(busy, 0, 6_000);
        stores
            .scheduler()
            .maintenance(0); // busy's compaction ahead of its roll takes the only permit
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();

        StoreFixture.fill(index, 0, 6_000);
        stores.scheduler().maintenance(1); // full: waits for a permit, the one bucket that may wait
        StoreFixture.fill(index, 6_000, 10_000); // the hot bucket now holds twice its limit
        stores.scheduler().maintenance(1);
        assertThat(index.buckets())
            .as("with one bucket waiting already the overrun hot bucket does not wait too")
            .extracting(BucketInfo::state)
            .containsExactly("rolling", "hot");
        assertThat(index.buckets()).extracting(BucketInfo::events).containsExactly(6_000L, 10_000L);
        assertThatThrownBy(() -> index.add(NumberedEvents.events(16_000, 100)))
            .isInstanceOf(IndexBusyException.class)
            .hasMessageContaining("1 full buckets wait for their roll");
        assertThat(index.count()).as("a refused batch stores nothing").isEqualTo(16_000);
      } finally {
        release.countDown();
      }
      Timed.until(
          60,
          () -> {
            stores.scheduler().maintenance(0);
            stores.scheduler().compaction(1);
            stores.scheduler().maintenance(1);
            return index.buckets().getFirst().state().equals("warm");
          });
      assertThat(index.buckets().getFirst().state()).isEqualTo("warm");
      index.add(NumberedEvents.events(16_000, 100)); // the bucket rolled: taken again
      assertThat(StoredRaws.of(index))
          .hasSize(16_100)
          .allSatisfy((raw, n) -> assertThat(n).isOne());
    }
  }

  @Test
  void theBoundIsChecked() {
    assertThatThrownBy(() -> IndexOptions.builder().maxWaitingBuckets(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxWaitingBuckets");
    assertThat(IndexOptions.DEFAULTS.maxWaitingBuckets()).isEqualTo(4);
  }
}
