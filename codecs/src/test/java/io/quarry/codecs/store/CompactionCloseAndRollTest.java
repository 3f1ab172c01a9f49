package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
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
 * What a deferred compaction does to a close, to a roll and to searches when it fails. A
 * compaction's merge (or a roll's forced merge) is held at its first file; meanwhile the store is
 * closed, or searched. Both must not wait for the held zstd-9 rewrite: every acknowledged event is
 * committed (or in the log) before it, so the merge could be aborted (close) or run outside the
 * bucket's monitor (roll).
 */
class CompactionCloseAndRollTest {
  @TempDir Path data;

  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
  private final ExecutorService other = Executors.newSingleThreadExecutor();

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
    other.shutdownNow();
  }

  private IndexStore open(CompactionSettings compaction, BucketDirectories directories)
      throws Exception {
    return DeferredCompactionTest.open(
        data, scheduler, BucketFormat.BLOCKS, compaction, directories);
  }

  private static void addSegments(IndexStore store) throws Exception {
    DeferredCompactionTest.addSegments(store);
  }

  /** close() does not wait (here: forever) for the idle compaction's merge to finish. */
  @Test
  void closeDoesNotWaitForARunningCompaction() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    IndexStore store =
        open(
            new CompactionSettings(true, Duration.ofMillis(300), 1L << 40),
            FaultyDirectories.holding(FaultyDirectories::compaction, entered, release));
    addSegments(store);
    assertThat(entered.await(30, TimeUnit.SECONDS)).as("the idle compaction started").isTrue();
    Timed<Void> closing = Timed.run(other, store::close);
    boolean closedInTime;
    try {
      closedInTime = closing.endsWithin(10);
    } finally {
      release.countDown();
    }
    closing.result(60);
    try (IndexStore reopened = open(CompactionSettings.INLINE, FSDirectory::open)) {
      assertThat(StoredRaws.of(reopened)).hasSize(10_000); // consistent either way
    }
    assertThat(closedInTime).as("close returned while the compaction's merge was held").isTrue();
  }

  /**
   * The scheduled roll of a full hot bucket starts the bucket's compaction in the background and
   * rolls it once that ended: the index's commits (the new hot bucket's) go on meanwhile instead of
   * waiting under the commit lock for the zstd-9 rewrite; the bucket then turns warm and compact,
   * every event found once.
   */
  @Test
  void aScheduledRollCompactsAheadAndCommitsGoOnMeanwhile() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    IndexOptions options =
        IndexOptions.builder()
            .commitInterval(Duration.ofMillis(200))
            .maxBucketEvents(5_000)
            .format(BucketFormat.BLOCKS)
            .compaction(new CompactionSettings(true, Duration.ofDays(1), 1L << 40))
            .build();
    try (IndexStore store =
        new IndexStore(
            "main",
            data.resolve("main"),
            options,
            scheduler,
            java.time.Clock.systemUTC(),
            FaultyDirectories.holding(FaultyDirectories::compaction, entered, release))) {
      for (int segment = 0; segment < 3; segment++) {
        store.add(NumberedEvents.events(segment * 2000, 2000));
        store.commit();
      }
      // 6,000 events, over 5,000: the next scheduled commit rolls the bucket
      assertThat(entered.await(30, TimeUnit.SECONDS)).as("the roll's compaction started").isTrue();
      boolean committedInTime;
      try {
        assertThat(store.buckets()).hasSize(2);
        assertThat(store.compaction().running()).isTrue();
        assertThat(store.compaction().due()).as("the full bucket's roll is still to come").isTrue();
        store.add(NumberedEvents.events(6_000, 100)); // the new hot bucket takes them
        committedInTime = Timed.run(other, store::commit).endsWithin(10);
      } finally {
        release.countDown();
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!store.buckets().getFirst().state().equals("warm") && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(committedInTime).as("a commit went on while the roll's compaction ran").isTrue();
      assertThat(store.buckets().getFirst().state()).isEqualTo("warm");
      assertThat(store.buckets().getFirst().events()).isEqualTo(6_000);
      java.util.Map<String, Integer> found = StoredRaws.of(store);
      assertThat(found).hasSize(6_100);
      assertThat(found.values()).allMatch(count -> count == 1);
      assertThat(StoredRaws.segmentLevels(store))
          .as("the warm bucket's segments compact, the new hot bucket's fast")
          .filteredOn(level -> level.endsWith("compact"))
          .isNotEmpty();
    }
  }

  /** A roll's forced merge (to 4 segments, compacting what is left). */
  private static boolean rollMerge(IOContext context) {
    return context.context() == IOContext.Context.MERGE
        && context.mergeInfo().mergeMaxNumSegments() == 4;
  }

  /**
   * A search of the rolling bucket does not wait for the roll's forced merge — with deferred
   * compaction the zstd-9 rewrite of every byte not compacted since the bucket was last idle (up to
   * {@code pendingBytes}, 1 GiB by default): it runs outside the bucket's monitor (inline too: the
   * wait was the roll's before session 33 as well; deferred compaction made the work inside it the
   * whole re-encode).
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
  void aSearchDoesNotWaitForTheRollsCompaction(boolean deferred) throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (IndexStore store =
        open(
            new CompactionSettings(deferred, Duration.ofDays(1), 1L << 40),
            FaultyDirectories.holding(CompactionCloseAndRollTest::rollMerge, entered, release))) {
      addSegments(store);
      Timed<Void> rolling = Timed.run(other, store::rollHotBucket);
      assertThat(entered.await(30, TimeUnit.SECONDS)).as("the roll's merge started").isTrue();
      ExecutorService searcher = Executors.newSingleThreadExecutor();
      Timed<Integer> search = Timed.call(searcher, () -> StoredRaws.of(store).size());
      Integer found;
      try {
        found = search.endsWithin(10) ? search.result(0) : null;
      } finally {
        release.countDown();
        rolling.result(60);
        searcher.shutdown();
      }
      assertThat(found)
          .as("events a search found while the roll's merge was held")
          .isEqualTo(10_000);
    }
  }

  /**
   * A compaction whose merge fails (here every file it opens: a full disk, an I/O error) is a
   * tragic event for Lucene: the writer closes. A search then recovers the bucket instead of
   * answering from its last searcher (which missed acknowledged events, with no error), and the
   * idle bucket's compaction is not started again (and failed again) without a backoff.
   */
  @Test
  void aFailingCompactionIsNotRetriedEverySecond() throws Exception {
    java.util.concurrent.atomic.AtomicInteger attempts =
        new java.util.concurrent.atomic.AtomicInteger();
    java.util.Set<Object> merges = java.util.concurrent.ConcurrentHashMap.newKeySet();
    try (IndexStore store =
        open(
            new CompactionSettings(true, Duration.ofMillis(300), 1L << 40),
            FaultyDirectories.failing(
                context -> {
                  boolean compaction = FaultyDirectories.compaction(context);
                  if (compaction && merges.add(context.mergeInfo())) {
                    attempts.incrementAndGet();
                  }
                  return compaction;
                }))) {
      addSegments(store); // acknowledged and committed; nobody searched yet
      Thread.sleep(8_000);
      int found = StoredRaws.of(store).size();
      int tried = attempts.get();
      store.commit(); // the commit's recover() reopens the bucket the failed merge closed
      int foundAfterCommit = StoredRaws.of(store).size();
      org.assertj.core.api.SoftAssertions soft = new org.assertj.core.api.SoftAssertions();
      soft.assertThat(found)
          .as("events a search finds after the compaction failed (before any add or commit)")
          .isEqualTo(10_000);
      soft.assertThat(tried)
          .as("compaction merges attempted in 8 s of idleness")
          .isLessThanOrEqualTo(2);
      soft.assertThat(foundAfterCommit)
          .as("events found after the commit's recovery")
          .isEqualTo(10_000);
      soft.assertAll();
    }
  }
}
