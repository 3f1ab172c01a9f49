package io.quarry.codecs.store;

import static io.quarry.codecs.store.NumberedEvents.events;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.lucene.store.IOContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link Bucket#failed()} at the edges of a roll, each reached deterministically: a roll held in
 * its merge has not failed; a roll whose merge throws has failed once Lucene has closed the writer
 * (a merge's I/O error is tragic to it); a roll that throws after closing its writer (its manifest
 * cannot be written) has failed at once. The next add reopens a failed bucket, and the next roll
 * makes it warm, with every event once.
 */
class RollFailureTest {
  @TempDir Path dataDirectory;

  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  private IndexStore open(BucketFormat format, BucketDirectories directories) throws IOException {
    return new IndexStore(
        "main",
        dataDirectory.resolve("main"),
        IndexOptions.builder().format(format).commitInterval(Duration.ofHours(1)).build(),
        scheduler,
        Clock.systemUTC(),
        directories);
  }

  /** Five committed segments of 10 events: more than a roll merges down to, so it merges. */
  private static Bucket fiveSegments(IndexStore store) throws IOException {
    for (int segment = 0; segment < 5; segment++) {
      store.add(events(segment * 10, 10));
      store.commit();
    }
    List<Bucket> buckets = store.bucketsOverlapping(Long.MIN_VALUE, Long.MAX_VALUE);
    assertThat(buckets).hasSize(1);
    return buckets.get(0);
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void aRollHeldInItsMergeHasNotFailed(BucketFormat format) throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (IndexStore store =
        open(
            format,
            FaultyDirectories.holding(
                context -> context.context() == IOContext.Context.MERGE, entered, release))) {
      Bucket bucket = fiveSegments(store);
      Background roll = Background.start("roll", store::rollHotBucket);
      try {
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(bucket.failed()).as("rolling").isFalse();
        assertThat(bucket.isWarm()).isFalse();
      } finally {
        release.countDown();
      }
      assertThat(roll.join()).isEmpty();
      assertThat(bucket.failed()).as("rolled").isFalse();
      assertThat(bucket.isWarm()).isTrue();
      assertThat(store.count()).isEqualTo(50);
    }
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void aRollWhoseMergeThrowsHasFailedOnceLuceneClosesItsWriter(BucketFormat format)
      throws Exception {
    AtomicBoolean failMerges = new AtomicBoolean();
    try (IndexStore store =
        open(
            format,
            FaultyDirectories.failing(
                context -> failMerges.get() && context.context() == IOContext.Context.MERGE))) {
      Bucket bucket = fiveSegments(store);
      failMerges.set(true);
      // forceMerge reports the merge's I/O error, or that the writer it tragically closed cannot
      // complete the merge, as the merge thread's close and the roll's wait happen to order
      assertThatThrownBy(store::rollHotBucket)
          .isInstanceOfAny(IOException.class, IllegalStateException.class);
      failMerges.set(false);
      // Lucene closes a writer whose merge threw (a tragic event, from the merge thread): the roll
      // may still have seen it open and left the bucket hot, but once it is closed the bucket has
      // failed either way, and is never warm
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!bucket.failed() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(bucket.failed()).as("its writer closed by the merge's tragic event").isTrue();
      assertThat(bucket.isWarm()).isFalse();

      store.add(events(50, 5)); // reopens the failed bucket, then adds to the new hot one
      List<Bucket> buckets = store.bucketsOverlapping(Long.MIN_VALUE, Long.MAX_VALUE);
      assertThat(buckets).hasSize(2).doesNotContain(bucket).noneMatch(Bucket::failed);
      store.rollHotBucket(); // rolls the reopened bucket too
      assertThat(store.bucketsOverlapping(Long.MIN_VALUE, Long.MAX_VALUE))
          .hasSize(2)
          .allMatch(Bucket::isWarm);
      assertThat(store.count()).isEqualTo(55);
    }
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void aRollThatThrowsAfterClosingItsWriterHasFailedAndIsReopened(BucketFormat format)
      throws Exception {
    try (IndexStore store = open(format, org.apache.lucene.store.FSDirectory::open)) {
      Bucket bucket = fiveSegments(store);
      // the roll writes its manifest through a temporary file: a directory in its place fails
      // the roll after the writer closed
      Path blocker = bucket.path().resolve(Bucket.MANIFEST + ".tmp");
      Files.createDirectories(blocker.resolve("in-the-way"));
      assertThatThrownBy(store::rollHotBucket).isInstanceOf(IOException.class);
      assertThat(bucket.failed()).as("its writer closed, no manifest").isTrue();
      assertThat(bucket.isWarm()).isFalse();
      Files.delete(blocker.resolve("in-the-way"));
      Files.delete(blocker);

      store.add(events(50, 5)); // reopens the failed bucket first
      List<Bucket> buckets = store.bucketsOverlapping(Long.MIN_VALUE, Long.MAX_VALUE);
      assertThat(buckets).hasSize(2).doesNotContain(bucket);
      assertThat(buckets).noneMatch(Bucket::failed);
      assertThat(store.count()).isEqualTo(55);
      store.rollHotBucket();
      assertThat(store.bucketsOverlapping(Long.MIN_VALUE, Long.MAX_VALUE)).allMatch(Bucket::isWarm);
      assertThat(store.count()).isEqualTo(55);
    }
  }
}
