package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.testing.SettableClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Review c36 of compact2: while an older full bucket waits for its roll (no compaction permit free)
 * the hot bucket goes on taking events past its limits; with ingest outrunning compaction each
 * bucket grew larger than the last, without bound. At twice its limits ({@link
 * FullBucketRolls#overrun}) the hot bucket now waits for its roll too and a new one opens, and
 * neither waiting bucket is compacted under the commit lock. Both tests failed on main (dd938fea).
 */
class HotBucketOverrunTest {
  @RegisterExtension final StoreFixture stores = new StoreFixture();

  private static IndexOptions options() {
    return IndexOptions.builder()
        .maxBucketEvents(5_000)
        .maxHotAge(Duration.ofHours(1))
        .format(BucketFormat.BLOCKS)
        .compaction(new CompactionSettings(true, Duration.ofDays(1), 1L << 40))
        .build();
  }

  private IndexStore store(
      String name, BucketDirectories directories, CompactionPermits node, Clock clock)
      throws java.io.IOException {
    return stores.open(name, options(), directories, node, clock);
  }

  @Test
  void aHotBucketPastTwiceItsEventLimitWaitsForItsRollInsteadOfGrowing() throws Exception {
    CompactionPermits node = new CompactionPermits(1);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger rollMergeFiles = new AtomicInteger();
    try (IndexStore busy =
            store(
                "busy",
                FaultyDirectories.holdingCompactions("", entered, release),
                node,
                Clock.systemUTC());
        IndexStore index =
            store(
                "main",
                FaultyDirectories.countingRollMerges(
                    rollMergeFiles, context -> false, new CountDownLatch(1), new CountDownLatch(0)),
                node,
                Clock.systemUTC())) {
      try {
        StoreFixture.fill(busy, 0, 6_000);
        stores
            .scheduler()
            .maintenance(0); // busy's compaction ahead of its roll takes the only permit
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();

        StoreFixture.fill(index, 0, 6_000);
        stores.scheduler().maintenance(1); // full: waits for a permit
        StoreFixture.fill(index, 6_000, 6_000);
        stores.scheduler().maintenance(1); // the hot bucket is full too, not twice: it goes on
        assertThat(index.buckets()).extracting(BucketInfo::state).containsExactly("rolling", "hot");

        StoreFixture.fill(index, 12_000, 4_000); // the hot bucket now holds 10,000: twice its limit
        stores.scheduler().maintenance(1);
        assertThat(index.buckets())
            .as("the overrun hot bucket waits for its roll too; a new hot bucket opened")
            .extracting(BucketInfo::state)
            .containsExactly("rolling", "rolling", "hot");
        assertThat(index.buckets())
            .extracting(BucketInfo::events)
            .containsExactly(6_000L, 10_000L, 0L);
        assertThat(rollMergeFiles.get()).as("files a roll's forced merge wrote").isZero();
        index.add(NumberedEvents.events(16_000, 100)); // the new hot bucket takes the ingest
        assertThat(index.buckets().getLast().events()).isEqualTo(100);
      } finally {
        release.countDown();
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (System.nanoTime() < deadline
          && !index.buckets().stream()
              .map(BucketInfo::state)
              .toList()
              .equals(java.util.List.of("warm", "warm", "hot"))) {
        stores.scheduler().maintenance(0);
        stores.scheduler().compaction(1);
        stores.scheduler().maintenance(1);
        Thread.sleep(20);
      }
      assertThat(index.buckets())
          .extracting(BucketInfo::state)
          .containsExactly("warm", "warm", "hot");
      assertThat(rollMergeFiles.get()).as("files a roll's forced merge wrote").isZero();
      assertThat(StoredRaws.of(index))
          .hasSize(16_100)
          .allSatisfy((raw, n) -> assertThat(n).isOne());
    }
  }

  @Test
  void aHotBucketPastTwiceItsHotAgeWaitsForItsRoll() throws Exception {
    SettableClock clock = new SettableClock(Instant.parse("2026-01-01T00:00:00Z"));
    CompactionPermits node = new CompactionPermits(1);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (IndexStore busy =
            store("busy", FaultyDirectories.holdingCompactions("", entered, release), node, clock);
        IndexStore index = store("main", org.apache.lucene.store.FSDirectory::open, node, clock)) {
      try {
        StoreFixture.fill(busy, 0, 6_000);
        stores.scheduler().maintenance(0);
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();

        StoreFixture.fill(index, 0, 2_000);
        clock.advance(Duration.ofMinutes(61));
        stores.scheduler().maintenance(1); // past its hot age: full, waits for a permit
        StoreFixture.fill(index, 2_000, 2_000);
        clock.advance(Duration.ofMinutes(61));
        stores.scheduler().maintenance(1); // the hot bucket is past its age, not twice: it goes on
        assertThat(index.buckets()).extracting(BucketInfo::state).containsExactly("rolling", "hot");

        clock.advance(Duration.ofMinutes(60)); // the hot bucket is 121 minutes old
        stores.scheduler().maintenance(1);
        assertThat(index.buckets())
            .extracting(BucketInfo::state)
            .containsExactly("rolling", "rolling", "hot");
      } finally {
        release.countDown();
      }
      assertThat(StoredRaws.of(index)).hasSize(4_000).allSatisfy((raw, n) -> assertThat(n).isOne());
    }
  }
}
