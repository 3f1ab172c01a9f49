package io.quarry.codecs.store;

import static io.quarry.codecs.store.NumberedEvents.events;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Deferred compaction ({@link CompactionSettings}): while events arrive the hot bucket's segments
 * keep fast journal blocks; once the bucket is idle (or its fast bytes pass the bound) a compaction
 * rewrites them compact; searches during the compaction, and after it, find every event once.
 */
class DeferredCompactionTest {
  @TempDir Path data;

  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  private IndexStore open(
      BucketFormat format, CompactionSettings compaction, BucketDirectories directories)
      throws Exception {
    return open(data, scheduler, format, compaction, directories);
  }

  /** Index main in {@code data}, committed by the test only. */
  static IndexStore open(
      Path data,
      ScheduledExecutorService scheduler,
      BucketFormat format,
      CompactionSettings compaction,
      BucketDirectories directories)
      throws Exception {
    IndexOptions options =
        IndexOptions.builder()
            .commitInterval(Duration.ofHours(1)) // commits are the test's
            .format(format)
            .compaction(compaction)
            .build();
    return new IndexStore(
        "main", data.resolve("main"), options, scheduler, Clock.systemUTC(), directories);
  }

  /** Five segments of 2,000 events each (committed one by one). */
  static void addSegments(IndexStore store) throws Exception {
    for (int segment = 0; segment < 5; segment++) {
      store.add(events(segment * 2000, 2000));
      store.commit();
    }
  }

  private static void awaitSettled(IndexStore store) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!store.compaction().settled() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(store.compaction().settled()).as("%s", store.compaction()).isTrue();
  }

  private static void assertEachOnce(IndexStore store, int events) throws Exception {
    Map<String, Integer> found = StoredRaws.of(store);
    assertThat(found).hasSize(events);
    assertThat(found.values()).allMatch(count -> count == 1);
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void anIdleBucketIsCompactedAndSearchesFindEveryEventOnceMeanwhile(BucketFormat format)
      throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    // the compaction's merge waits as it opens its first file
    BucketDirectories directories =
        FaultyDirectories.holding(FaultyDirectories::compaction, entered, release);
    CompactionSettings compaction = new CompactionSettings(true, Duration.ofMillis(300), 1L << 40);
    try (IndexStore store = open(format, compaction, directories)) {
      addSegments(store);
      assertThat(StoredRaws.segmentLevels(store)).allMatch(level -> level.equals(StoredRaws.FAST));
      assertThat(store.compaction().pendingBytes()).isPositive();

      assertThat(entered.await(30, TimeUnit.SECONDS)).as("the idle bucket's compaction").isTrue();
      try {
        assertThat(store.compaction().running()).isTrue();
        assertEachOnce(store, 10_000);
        store.add(events(10_000, 100)); // adds go on during a compaction
        assertEachOnce(store, 10_100);
      } finally {
        release.countDown();
      }
      awaitSettled(store);
      assertEachOnce(store, 10_100);
      assertThat(StoredRaws.segmentLevels(store)).allMatch(level -> level.equals("12 compact"));
      assertThat(store.compaction().compactions()).isPositive();
      assertThat(store.compaction().pendingBytes()).isZero();
    }
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void anIdleBucketSmallerThanTheIdleMinimumIsNotCompacted(BucketFormat format) throws Exception {
    // _audit, _internal: a few events per idle gap, each not worth a flush and a zstd-9 rewrite
    CompactionSettings compaction =
        new CompactionSettings(true, Duration.ofMillis(100), 1L << 20, 1L << 40);
    try (IndexStore store = open(format, compaction, FSDirectory::open)) {
      for (int gap = 0; gap < 3; gap++) {
        store.add(events(gap * 50, 50));
        store.commit();
        Thread.sleep(1_500); // idle: past the 100 ms, several of the scheduler's looks
      }
      assertThat(store.compaction().compactions()).as("%s", store.compaction()).isZero();
      assertThat(store.compaction().pendingBytes()).isPositive().isLessThan(1L << 20);
      assertThat(store.compaction().due()).as("under the idle minimum: not due").isFalse();
      assertThat(store.compaction().settled()).isTrue();
      assertThat(StoredRaws.segmentLevels(store)).allMatch(level -> level.equals(StoredRaws.FAST));
      assertEachOnce(store, 150);
    }
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void theIndexsCompactionCountNeverGoesDown(BucketFormat format) throws Exception {
    CompactionSettings compaction = new CompactionSettings(true, Duration.ofMillis(100), 1L << 40);
    try (IndexStore store = open(format, compaction, FSDirectory::open)) {
      addSegments(store);
      awaitSettled(store);
      long compacted = store.compaction().compactions();
      assertThat(compacted).isPositive();
      store.rollHotBucket();
      long afterRoll = store.compaction().compactions();
      assertThat(afterRoll).isGreaterThanOrEqualTo(compacted);
      Bucket warm = store.bucketsOverlapping(Long.MIN_VALUE, Long.MAX_VALUE).getFirst();
      assertThat(warm.isWarm()).isTrue();
      store.quarantine(warm, new java.io.IOException("test: the bucket leaves the index"));
      assertThat(store.compaction().compactions())
          .as("compactions after the compacted bucket left the index")
          .isEqualTo(afterRoll);
    }
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void fastBytesPastTheBoundAreCompactedWhileEventsArrive(BucketFormat format) throws Exception {
    // never idle long enough: only the bound starts a compaction
    CompactionSettings compaction = new CompactionSettings(true, Duration.ofDays(1), 1);
    try (IndexStore store = open(format, compaction, FSDirectory::open)) {
      addSegments(store);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (store.compaction().compactions() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(store.compaction().compactions()).isPositive();
      awaitSettled(store);
      assertEachOnce(store, 10_000);
      assertThat(StoredRaws.segmentLevels(store)).allMatch(level -> level.equals("12 compact"));
    }
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void aRollCompactsWhatIsLeftAndMergesOfCompactSegmentsStayCompact(BucketFormat format)
      throws Exception {
    CompactionSettings compaction = new CompactionSettings(true, Duration.ofDays(1), 1L << 40);
    try (IndexStore store = open(format, compaction, FSDirectory::open)) {
      addSegments(store);
      store.rollHotBucket(); // merges the five fast segments down to a few compact ones
      store.add(events(10_000, 10));
      store.commit();
      assertEachOnce(store, 10_010);
      assertThat(StoredRaws.segmentLevels(store))
          .containsOnly("12 compact", StoredRaws.FAST) // the new hot bucket's one segment is fast
          .containsOnlyOnce(StoredRaws.FAST);
    }
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void inlineCompactionLeavesSmallMergesFastAndReportsNothingPending(BucketFormat format)
      throws Exception {
    try (IndexStore store = open(format, CompactionSettings.INLINE, FSDirectory::open)) {
      addSegments(store);
      store.rollHotBucket();
      assertEachOnce(store, 10_000);
      // merges under 128 MiB write fast blocks, a roll's too: the behaviour before session 33
      assertThat(StoredRaws.segmentLevels(store)).allMatch(level -> level.equals(StoredRaws.FAST));
      assertThat(store.compaction()).isEqualTo(new CompactionStatus(0, false, false, 0, 0, 0));
    }
  }
}
