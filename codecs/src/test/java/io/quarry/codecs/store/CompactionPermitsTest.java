package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The node's compaction permits ({@link CompactionPermits}) bound every deferred compaction, not
 * only those ahead of a roll, and no roll compacts under its index's commit lock for want of one:
 * review c35 found (a) a full bucket still waiting for a permit when its index's hot bucket filled
 * again rolled at once, its whole zstd-9 compaction run by the roll's forced merge under the commit
 * lock on the store's one scheduler thread; (b) idle compactions started whatever the permits; (c)
 * the permits' monitor held across a compaction's start (a flush and Lucene's merge registration).
 */
class CompactionPermitsTest {
  @RegisterExtension final StoreFixture stores = new StoreFixture();
  private final ExecutorService callers = Executors.newCachedThreadPool();

  @AfterEach
  void stop() {
    callers.shutdownNow();
  }

  private static IndexOptions full(Duration idle) {
    return IndexOptions.builder()
        .maxBucketEvents(5_000)
        .format(BucketFormat.BLOCKS)
        .compaction(new CompactionSettings(true, idle, 1L << 40))
        .build();
  }

  /** An index whose hot bucket compacts as soon as it is idle. */
  private static IndexOptions idle() {
    return IndexOptions.builder()
        .format(BucketFormat.BLOCKS)
        .compaction(new CompactionSettings(true, Duration.ZERO, 1L << 40))
        .build();
  }

  /** An index of this node under {@code data}, its periodic tasks run by the test. */
  private IndexStore store(
      String name, IndexOptions options, BucketDirectories directories, CompactionPermits node)
      throws java.io.IOException {
    return stores.open(name, options, directories, node);
  }

  @Test
  void aHotBucketFillingWhileTheLastWaitsForAPermitGoesOnInsteadOfRollingItUnderTheLock()
      throws Exception {
    CompactionPermits node = new CompactionPermits(1);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger rollMergeFiles = new AtomicInteger();
    try (IndexStore first =
            store(
                "first",
                full(Duration.ofDays(1)),
                FaultyDirectories.holdingCompactions("", entered, release),
                node);
        IndexStore second =
            store(
                "second",
                full(Duration.ofDays(1)),
                FaultyDirectories.countingRollMerges(
                    rollMergeFiles, context -> false, new CountDownLatch(1), new CountDownLatch(0)),
                node)) {
      try {
        StoreFixture.fill(first, 0, 6_000);
        stores
            .scheduler()
            .maintenance(0); // first fills: its compaction ahead takes the only permit
        assertThat(entered.await(30, TimeUnit.SECONDS)).as("first compacts ahead").isTrue();

        StoreFixture.fill(second, 0, 6_000);
        stores
            .scheduler()
            .maintenance(1); // second fills: no permit, its full bucket waits uncompacted
        StoreFixture.fill(second, 6_000, 6_000);
        // second's hot bucket fills too while the full one still waits for a permit: on the old
        // path the waiting bucket rolled here, its forced merge compacting it under the lock
        Timed<Void> commit = Timed.run(callers, () -> stores.scheduler().maintenance(1));
        assertThat(commit.endsWithin(30)).as("second's scheduled commit").isTrue();
        assertThat(rollMergeFiles.get()).as("files a roll's forced merge wrote").isZero();
        assertThat(second.buckets())
            .extracting(BucketInfo::state)
            .containsExactly("rolling", "hot");
        assertThat(second.buckets().getLast().events())
            .as("the hot bucket goes on past its limit")
            .isEqualTo(6_000);
        second.add(NumberedEvents.events(12_000, 100)); // ingest goes on
      } finally {
        release.countDown();
      }
      // first's compaction ends and it rolls; then second's waiting bucket, then its full hot one,
      // each compacted ahead of its roll with the permit
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (System.nanoTime() < deadline
          && (second.buckets().size() < 3
              || !second.buckets().get(1).state().equals("warm")
              || !first.buckets().getFirst().state().equals("warm"))) {
        stores.scheduler().maintenance(0);
        stores.scheduler().maintenance(1);
        Thread.sleep(20);
      }
      assertThat(first.buckets().getFirst().state()).isEqualTo("warm");
      assertThat(second.buckets())
          .extracting(BucketInfo::state)
          .containsExactly("warm", "warm", "hot");
      assertThat(rollMergeFiles.get()).as("files a roll's forced merge wrote").isZero();
      assertThat(StoredRaws.of(second))
          .hasSize(12_100)
          .allSatisfy((raw, n) -> assertThat(n).isOne());
      assertThat(StoredRaws.segmentLevels(second)).allMatch(level -> level.endsWith("compact"));
    }
  }

  @Test
  void anIdleCompactionWaitsForAPermit() throws Exception {
    CompactionPermits node = new CompactionPermits(1);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (IndexStore first =
            store(
                "first",
                full(Duration.ofDays(1)),
                FaultyDirectories.holdingCompactions("", entered, release),
                node);
        IndexStore idle = store("idle", idle(), FSDirectory::open, node)) {
      try {
        StoreFixture.fill(first, 0, 6_000);
        stores
            .scheduler()
            .maintenance(0); // first's compaction ahead of its roll takes the only permit
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
        idle.add(NumberedEvents.events(0, 2_000));
        idle.commit();
        stores.scheduler().compaction(1); // idle and due: on the old path it compacted at once
        Thread.sleep(300);
        assertThat(idle.compaction().running()).as("an idle compaction runs").isFalse();
        assertThat(idle.compaction().compactions()).isZero();
        assertThat(idle.compaction().due()).isTrue();
      } finally {
        release.countDown();
      }
      // first rolls once its merges ended, which frees its permit; the idle index's next check
      // takes it
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (System.nanoTime() < deadline
          && (idle.compaction().compactions() == 0 || idle.compaction().running())) {
        stores.scheduler().maintenance(0);
        stores.scheduler().compaction(1);
        Thread.sleep(20);
      }
      assertThat(first.buckets().getFirst().state()).isEqualTo("warm");
      assertThat(idle.compaction().compactions()).as("the idle compaction, once free").isPositive();
      assertThat(StoredRaws.of(idle)).hasSize(2_000);
    }
  }

  /**
   * Review c36: a full bucket asked for a permit only at its index's commit (every 10 s) while an
   * idle compaction asked every second, so a freed permit went to the idle ask and the full
   * bucket's index kept growing its hot bucket. A full bucket waiting for a permit now goes first,
   * and its index's compaction check starts it once a permit is free.
   */
  @Test
  void aFullBucketWaitingForAPermitGoesBeforeAnIdleCompaction() throws Exception {
    CompactionPermits node = new CompactionPermits(1);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (IndexStore first =
            store(
                "first",
                full(Duration.ofDays(1)),
                FaultyDirectories.holdingCompactions("", entered, release),
                node);
        IndexStore waiting = store("waiting", full(Duration.ofDays(1)), FSDirectory::open, node);
        IndexStore idle = store("idle", idle(), FSDirectory::open, node)) {
      try {
        StoreFixture.fill(first, 0, 6_000);
        stores
            .scheduler()
            .maintenance(0); // first's compaction ahead of its roll takes the only permit
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
        StoreFixture.fill(waiting, 0, 6_000);
        stores.scheduler().maintenance(1); // full, no permit free: it waits for one
        idle.add(NumberedEvents.events(0, 2_000));
        idle.commit();
      } finally {
        release.countDown();
      }
      // first rolls once its merges ended (a commit finding one still registered rolls later)
      Timed.until(30, () -> rolled(0, first));
      assertThat(first.buckets().getFirst().state()).isEqualTo("warm");

      stores.scheduler().compaction(2); // the idle index asks first
      stores
          .scheduler()
          .compaction(1); // then the waiting full bucket's index, before its next commit
      Timed.until(30, () -> waiting.compaction().compactions() > 0);
      assertThat(waiting.compaction().compactions())
          .as("the waiting full bucket compacted ahead of its roll without a commit")
          .isPositive();
      assertThat(idle.compaction().compactions()).as("idle compactions meanwhile").isZero();
      assertThat(idle.compaction().running()).isFalse();
      assertThat(idle.compaction().due()).isTrue();
      Timed.until(30, () -> rolled(1, waiting)); // the permit goes to the idle compaction
      assertThat(waiting.buckets()).extracting(BucketInfo::state).containsExactly("warm", "hot");
      stores.scheduler().compaction(2);
      Timed.until(30, () -> idle.compaction().compactions() > 0);
      assertThat(idle.compaction().compactions()).isPositive();
      assertThat(StoredRaws.of(waiting))
          .hasSize(6_000)
          .allSatisfy((raw, n) -> assertThat(n).isOne());
    }
  }

  /** Runs the {@code index}-th store's maintenance: whether its first bucket is warm after it. */
  private boolean rolled(int index, IndexStore store) throws java.io.IOException {
    stores.scheduler().maintenance(index);
    return store.buckets().getFirst().state().equals("warm");
  }

  @Test
  void aSlowStartHoldsNoOtherBucketsAsk() throws Exception {
    IndexOptions options = IndexOptions.builder().build();
    CompactionPermits two = new CompactionPermits(2);
    CompactionPermits one = new CompactionPermits(1);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (Bucket slow = Bucket.open(1, stores.data().resolve("1"), options, 0);
        Bucket other = Bucket.open(2, stores.data().resolve("2"), options, 0)) {
      CompactionPermits.IOStart held =
          () -> {
            entered.countDown();
            try {
              release.await();
            } catch (InterruptedException e) {
              throw new java.io.InterruptedIOException();
            }
            return true;
          };
      Timed<CompactionPermits.Started> slowStart = Timed.call(callers, () -> two.start(slow, held));
      Timed<CompactionPermits.Started> slowOnOne;
      try {
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
        Timed<CompactionPermits.Started> ask =
            Timed.call(callers, () -> two.start(other, () -> true));
        assertThat(ask.endsWithin(5)).as("another bucket's ask while a start is slow").isTrue();
        assertThat(ask.result(0)).isEqualTo(CompactionPermits.Started.MERGING);

        CountDownLatch enteredOne = new CountDownLatch(1);
        slowOnOne =
            Timed.call(
                callers,
                () ->
                    one.start(
                        slow,
                        () -> {
                          enteredOne.countDown();
                          return held.merging();
                        }));
        assertThat(enteredOne.await(30, TimeUnit.SECONDS)).isTrue();
        Timed<CompactionPermits.Started> refused =
            Timed.call(callers, () -> one.start(other, () -> true));
        assertThat(refused.endsWithin(5)).as("an ask refused while a start is slow").isTrue();
        assertThat(refused.result(0))
            .as("the only permit is the slow start's, reserved while it starts")
            .isEqualTo(CompactionPermits.Started.NO_PERMIT);
      } finally {
        release.countDown();
      }
      assertThat(slowStart.result(30)).isEqualTo(CompactionPermits.Started.MERGING);
      assertThat(slowOnOne.result(30)).isEqualTo(CompactionPermits.Started.MERGING);
    }
  }
}
