package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.IOContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review (session 34, review-a) of the scheduled roll's new path: a full bucket whose writes were
 * switched to a new hot bucket, committed, and compacting in the background before its roll.
 */
class RollWindowTest {
  @TempDir Path data;

  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
  private final ExecutorService other = Executors.newSingleThreadExecutor();

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
    other.shutdownNow();
  }

  /** Directories where every file a compaction merge opens waits until {@code release}. */
  private static BucketDirectories holdingCompactions(
      CountDownLatch entered, CountDownLatch release) {
    return FaultyDirectories.holdingCompactions("", entered, release);
  }

  private static IndexOptions options(long maxBucketEvents) {
    return IndexOptions.builder()
        .commitInterval(Duration.ofMillis(200))
        .maxBucketEvents(maxBucketEvents)
        .format(BucketFormat.BLOCKS)
        .compaction(new CompactionSettings(true, Duration.ofDays(1), 1L << 40))
        .build();
  }

  private IndexStore open(IndexOptions options, BucketDirectories directories) throws IOException {
    return new IndexStore(
        "main", data.resolve("main"), options, scheduler, Clock.systemUTC(), directories);
  }

  private static long notWarm(IndexStore store) throws IOException {
    return store.buckets().stream().filter(bucket -> !bucket.state().equals("warm")).count();
  }

  /**
   * Between "writes switched" and "rolled": every event is searched exactly once; a close then
   * returns without waiting for the held compaction; the next open has every event once and the
   * full bucket warm. (Expected to pass: the durability of the new path.)
   */
  @Test
  void eachEventOnceDuringTheWindowAndAfterACloseInIt() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    IndexStore store = open(options(5_000), holdingCompactions(entered, release));
    boolean closedInTime;
    try {
      for (int segment = 0; segment < 3; segment++) {
        store.add(NumberedEvents.events(segment * 2000, 2000));
        store.commit();
      }
      assertThat(entered.await(30, TimeUnit.SECONDS)).as("the roll's compaction started").isTrue();
      store.add(NumberedEvents.events(6_000, 100));
      assertThat(notWarm(store)).as("the full bucket waits for its roll").isEqualTo(2);
      Map<String, Integer> found = StoredRaws.of(store);
      assertThat(found).hasSize(6_100);
      assertThat(found.values()).allMatch(count -> count == 1);
      closedInTime = Timed.run(other, store::close).endsWithin(10);
    } finally {
      release.countDown();
    }
    assertThat(closedInTime).as("close aborted the held compaction").isTrue();
    try (IndexStore reopened = open(options(5_000), FSDirectory::open)) {
      Map<String, Integer> found = StoredRaws.of(reopened);
      assertThat(found).hasSize(6_100);
      assertThat(found.values()).allMatch(count -> count == 1);
      // the open started the un-rolled bucket's compaction again; a commit rolls it once it ended
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!reopened.buckets().getFirst().state().equals("warm")
          && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(reopened.buckets().getFirst().state()).isEqualTo("warm");
      assertThat(reopened.buckets().getFirst().events()).isEqualTo(6_000);
    }
  }

  /**
   * A never-idle index whose buckets fill faster than a compaction ends: before the new path the
   * roll's forced merge ran on the store's one scheduler thread, so one bucket compacted at a time
   * (across every index of the node); then each full bucket started its own background compaction
   * and nothing bounded how many waited and compacted at once. (Failed on 885fc7d6, before session
   * 34's mend.) Now the node's permits bound the compactions ({@code CompactionPermitsTest}) and,
   * while they are busy, a hot bucket takes events up to twice its limit, then waits for its roll
   * too (mendc, {@link FullBucketRolls#overrun}): the buckets waiting are as many as the ingest
   * needs, none larger than twice its limit.
   */
  @Test
  void bucketsWaitingForTheirRollAreBounded() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<BucketInfo> waiting;
    try (IndexStore store = open(options(1_000), holdingCompactions(entered, release))) {
      try {
        for (int round = 0; round < 5; round++) {
          store.add(NumberedEvents.events(round * 1_000, 1_000));
          // the first full bucket waits (its compaction held); then each hot bucket at 2,000
          int buckets = 2 + round / 2;
          Timed.until(10, () -> store.buckets().size() >= buckets);
        }
        waiting = store.buckets().subList(0, store.buckets().size() - 1);
      } finally {
        release.countDown();
      }
      Map<String, Integer> found = StoredRaws.of(store);
      assertThat(found).hasSize(5_000);
      assertThat(found.values()).allMatch(count -> count == 1);
    }
    assertThat(waiting)
        .as("full buckets waiting for their roll")
        .extracting(BucketInfo::events)
        .containsExactly(1_000L, 2_000L, 2_000L);
  }

  /**
   * A close (an upgrade, a restart) during the roll's background compaction leaves the full bucket
   * un-rolled; the next open rolls it in BucketOpening, synchronously: the open waits for the whole
   * zstd-9 rewrite of the bucket (up to maxBucketEvents' worth) before the index takes a write.
   * Failed on 885fc7d6, before session 34's mend (the open was held as long as the compaction was).
   */
  @Test
  void anOpenAfterACloseInTheWindowDoesNotWaitForTheCompaction() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    IndexStore store = open(options(5_000), holdingCompactions(entered, release));
    try {
      for (int segment = 0; segment < 3; segment++) {
        store.add(NumberedEvents.events(segment * 2000, 2000));
        store.commit();
      }
      assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
      Timed.run(other, store::close).result(30);
    } finally {
      release.countDown();
    }
    CountDownLatch enteredAgain = new CountDownLatch(1);
    CountDownLatch releaseAgain = new CountDownLatch(1);
    // the roll's forced merge (to 4 segments) compacts every fast segment: held like a compaction
    BucketDirectories holdingRollMerges =
        FaultyDirectories.holding(
            context ->
                context.context() == IOContext.Context.MERGE
                    && context.mergeInfo().mergeMaxNumSegments() == 4,
            enteredAgain,
            releaseAgain);
    Timed<IndexStore> opening = Timed.call(other, () -> open(options(5_000), holdingRollMerges));
    boolean openedInTime;
    try {
      openedInTime = opening.endsWithin(10);
    } finally {
      releaseAgain.countDown();
    }
    opening.result(60).close();
    assertThat(openedInTime)
        .as("the open returned while the un-rolled bucket's compaction was held")
        .isTrue();
  }

  /**
   * Retention by {@code maxTotalBytes} counts every file of a bucket's directory; a full bucket
   * compacting ahead of its roll holds its fast segments and the compact ones being written (and,
   * once the merge ended, both until the roll's commit) for the whole window, and retention runs
   * every commit meanwhile. Here the limit holds two compact buckets (2.5 of one) and the second
   * bucket's compaction is held after writing its data: the transient 3 buckets' worth deletes the
   * first, warm bucket for good, which the limit never asked for once the roll ends. (The roll ran
   * before retention, under the commit lock, until 885fc7d6.) (Failed on 885fc7d6, before session
   * 34's mend.)
   */
  @Test
  void retentionDoesNotDeleteForACompactionsTransientBytes() throws Exception {
    long warmBytes;
    try (IndexStore store = open(options(5_000), FSDirectory::open)) {
      for (int segment = 0; segment < 3; segment++) {
        store.add(NumberedEvents.events(segment * 2000, 2000));
        store.commit();
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!store.buckets().getFirst().state().equals("warm") && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(store.buckets().getFirst().state()).isEqualTo("warm");
      warmBytes = store.buckets().getFirst().bytes();
    }
    IndexOptions limited =
        options(5_000).toBuilder().maxTotalBytes(java.util.Optional.of(warmBytes * 5 / 2)).build();
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (IndexStore store =
        open(limited, FaultyDirectories.holdingCompactions(".si", entered, release))) {
      try {
        for (int segment = 3; segment < 6; segment++) {
          store.add(NumberedEvents.events(segment * 2000, 2000));
          store.commit();
        }
        assertThat(entered.await(30, TimeUnit.SECONDS))
            .as("the roll's compaction wrote its data")
            .isTrue();
        Thread.sleep(1_500); // several scheduled commits, each followed by retention
      } finally {
        release.countDown();
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (notWarm(store) > 1 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      long total = 0;
      for (BucketInfo bucket : store.buckets()) {
        total += bucket.bytes();
      }
      assertThat(total)
          .as(
              "the index once rolled fits the limit with both buckets (%s bytes a bucket)",
              warmBytes)
          .isLessThanOrEqualTo(warmBytes * 5 / 2);
      assertThat(StoredRaws.of(store))
          .as(
              "events left: retention deleted the first bucket for the compaction's transient bytes")
          .hasSize(12_000);
    }
  }

  /**
   * {@code storage.compaction.idleMillis} as large as a long (a way to say "never idle"; the config
   * check takes any value of 0 or more): {@code idle().toNanos()} overflows in every scheduled
   * check, which catches the ArithmeticException at FINE, so not even the pending-bytes bound
   * compacts. (Failed on 885fc7d6, before session 34's mend.)
   */
  @Test
  void aNeverIdleSettingStillCompactsPastThePendingBound() throws Exception {
    IndexOptions options =
        IndexOptions.builder()
            .commitInterval(Duration.ofHours(1))
            .format(BucketFormat.BLOCKS)
            .compaction(new CompactionSettings(true, Duration.ofMillis(Long.MAX_VALUE), 1, 1))
            .build();
    try (IndexStore store = open(options, FSDirectory::open)) {
      DeferredCompactionTest.addSegments(store);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (store.compaction().compactions() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(store.compaction().compactions())
          .as("compactions past a 1-byte pending bound: %s", store.compaction())
          .isPositive();
    }
  }

  /**
   * An idle compaction running when the bucket fills: the roll's commit flushes the last fast
   * segment, which that compaction does not take; the bucket compacts again once it ended, so the
   * roll's forced merge (to 4 segments, under the commit lock) writes nothing (mendsc).
   */
  @Test
  void aRollAfterAnIdleCompactionCompactsTheLastSegmentAheadOfIt() throws Exception {
    java.util.concurrent.atomic.AtomicInteger rollMergeFiles =
        new java.util.concurrent.atomic.AtomicInteger();
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    BucketDirectories directories =
        FaultyDirectories.holding(
            context -> {
              if (context.context() == IOContext.Context.MERGE
                  && context.mergeInfo().mergeMaxNumSegments() == 4) {
                rollMergeFiles.incrementAndGet();
              }
              return FaultyDirectories.compaction(context);
            },
            entered,
            release);
    IndexOptions options =
        IndexOptions.builder()
            .commitInterval(Duration.ofMillis(200))
            .maxBucketEvents(5_000)
            .format(BucketFormat.BLOCKS)
            .compaction(new CompactionSettings(true, Duration.ofMillis(100), 1L << 40))
            .build();
    try (IndexStore store = open(options, directories)) {
      try {
        store.add(NumberedEvents.events(0, 2_000));
        store.commit();
        assertThat(entered.await(30, TimeUnit.SECONDS)).as("the idle compaction started").isTrue();
        store.add(NumberedEvents.events(2_000, 4_000)); // full: the next commit rolls it
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (store.buckets().getFirst().state().equals("hot") && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        assertThat(store.buckets().getFirst().state()).isEqualTo("rolling");
        assertThat(store.buckets()).hasSize(2);
      } finally {
        release.countDown();
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!store.buckets().getFirst().state().equals("warm") && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(store.buckets().getFirst().state()).isEqualTo("warm");
      assertThat(store.buckets().getFirst().events()).isEqualTo(6_000);
      assertThat(rollMergeFiles.get()).as("files the roll's forced merge wrote").isZero();
    }
  }
}
