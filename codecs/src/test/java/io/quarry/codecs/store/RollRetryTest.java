package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A scheduled roll that fails neither stops nor delays the hot bucket's commit, and is retried
 * after a back-off ({@link FullBucketRolls}); a full bucket whose compaction ahead of its roll
 * failed does not start another before the index's compaction back-off ends ({@link
 * IndexCompaction#backingOff}). Review c35: the roll ran first in the commit and its exception
 * skipped the commit (for as long as the roll kept failing), and {@code compactBeforeRoll} started
 * a compaction at every commit whatever the back-off.
 */
class RollRetryTest {
  @RegisterExtension final StoreFixture stores = new StoreFixture();

  /** An index whose buckets fill at 5,000 events and compact only ahead of their roll. */
  private IndexStore open(BucketDirectories directories) throws java.io.IOException {
    return open(directories, 1);
  }

  /** As above, with {@code permits} compactions at once on the node. */
  private IndexStore open(BucketDirectories directories, int permits) throws java.io.IOException {
    IndexOptions options =
        IndexOptions.builder()
            .maxBucketEvents(5_000)
            .format(BucketFormat.BLOCKS)
            .compaction(new CompactionSettings(true, Duration.ofDays(1), 1L << 40))
            .build();
    return stores.open("main", options, directories, new CompactionPermits(permits));
  }

  @Test
  void aFailingRollLetsTheHotBucketCommitAndIsRetried() throws Exception {
    try (IndexStore store = open(FSDirectory::open)) {
      // the roll writes its manifest through a temporary file: a directory in its place fails
      // every roll of bucket 1 after its writer closed
      Path blocker = store.bucketPath(1).resolve(Bucket.MANIFEST + ".tmp");
      Files.createDirectories(blocker.resolve("in-the-way"));
      StoreFixture.fill(store, 0, 6_000);
      stores.scheduler().maintenance(0); // bucket 1 fills and compacts ahead of its roll
      Timed.until(30, () -> store.compaction().compactions() > 0 && !store.compaction().running());
      store.add(NumberedEvents.events(6_000, 100));

      stores.scheduler().maintenance(0); // bucket 1's roll fails
      Bucket hot = hot(store);
      assertThat(hot.id()).isEqualTo(2);
      assertThat(hot.hasUncommittedChanges()).as("the hot bucket committed").isFalse();
      store.add(NumberedEvents.events(6_100, 100));
      assertThatCode(store::commit)
          .as("a commit while the roll backs off")
          .doesNotThrowAnyException();
      assertThat(hot(store).hasUncommittedChanges()).isFalse();
      assertThat(store.buckets()).extracting(BucketInfo::state).containsExactly("rolling", "hot");

      Files.delete(blocker.resolve("in-the-way"));
      Files.delete(blocker);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!store.buckets().getFirst().state().equals("warm") && System.nanoTime() < deadline) {
        stores.scheduler().maintenance(0);
        Thread.sleep(50);
      }
      assertThat(store.buckets()).extracting(BucketInfo::state).containsExactly("warm", "hot");
      assertThat(StoredRaws.of(store)).hasSize(6_200).allSatisfy((raw, n) -> assertThat(n).isOne());
    }
  }

  @Test
  void aFullBucketWhoseCompactionFailedWaitsForTheBackOff() throws Exception {
    AtomicInteger compactionMerges = new AtomicInteger();
    try (IndexStore store =
        open(
            FaultyDirectories.failing(
                context ->
                    FaultyDirectories.compaction(context)
                        && compactionMerges.incrementAndGet() > 0))) {
      StoreFixture.fill(store, 0, 6_000);
      stores.scheduler().maintenance(0); // bucket 1 fills; its compaction ahead of the roll fails
      Timed.until(30, () -> compactionMerges.get() > 0);
      for (int commit = 0; commit < 5; commit++) {
        Thread.sleep(200); // the merge's failure closes the writer: the next commit reopens it
        stores.scheduler().maintenance(0);
      }
      assertThat(compactionMerges.get()).as("compaction merges tried in the back-off").isEqualTo(1);
      assertThat(store.buckets()).extracting(BucketInfo::state).containsExactly("rolling", "hot");
      assertThat(StoredRaws.of(store)).hasSize(6_000).allSatisfy((raw, n) -> assertThat(n).isOne());
    }
  }

  /**
   * The back-off after a failed roll is the bucket's own: a full bucket whose roll keeps failing
   * does not hold back the roll of another full bucket of its index. It was the index's (before
   * commit2), so the second bucket, compacted and ready, waited out the first one's delay.
   */
  @Test
  void aFailingRollHoldsBackOnlyItsOwnBucket() throws Exception {
    try (IndexStore store = open(FSDirectory::open, 2)) {
      Path blocker = store.bucketPath(1).resolve(Bucket.MANIFEST + ".tmp");
      Files.createDirectories(blocker.resolve("in-the-way"));
      StoreFixture.fill(store, 0, 6_000);
      stores.scheduler().maintenance(0); // bucket 1 fills and compacts ahead of its roll
      Timed.until(30, () -> store.compaction().compactions() > 0 && !store.compaction().running());
      // bucket 1's roll fails four times in a row, each past the delay before: its next try waits
      // 8 s
      for (long delay = 0; delay <= 4_000; delay = delay == 0 ? 1_000 : 2 * delay) {
        Thread.sleep(delay == 0 ? 0 : delay + 100);
        stores.scheduler().maintenance(0);
      }
      long lastFailure = System.nanoTime();

      // bucket 2 takes twice its limit while bucket 1 waits, then waits for its roll too
      store.add(NumberedEvents.events(6_000, 10_000));
      store.commit();
      long compacted = store.compaction().compactions();
      stores.scheduler().maintenance(0); // bucket 2 turns full and compacts ahead of its roll
      // commits until bucket 2 rolled, while bucket 1's back-off lasts: bucket 2's compaction may
      // take several rounds (one commit after the first round's end found the next to merge)
      long backOffEnds = lastFailure + TimeUnit.MILLISECONDS.toNanos(7_500);
      while (!stateOf(store, 2).equals("warm") && System.nanoTime() - backOffEnds < 0) {
        Thread.sleep(50);
        stores.scheduler().maintenance(0);
      }

      org.junit.jupiter.api.Assumptions.assumeTrue(
          stateOf(store, 2).equals("warm")
              || store.compaction().compactions() > compacted && !store.compaction().running(),
          "bucket 2's compaction had not ended when bucket 1's back-off did");
      assertThat(store.buckets())
          .as("bucket 2 rolled while bucket 1 backs off after its failed rolls")
          .filteredOn(bucket -> bucket.id() == 2)
          .extracting(BucketInfo::state)
          .containsExactly("warm");
      assertThat(store.buckets().getFirst().state()).isNotEqualTo("warm");
      assertThat(StoredRaws.of(store))
          .hasSize(16_000)
          .allSatisfy((raw, n) -> assertThat(n).isOne());
    }
  }

  private static String stateOf(IndexStore store, long bucket) throws Exception {
    return store.buckets().stream()
        .filter(info -> info.id() == bucket)
        .map(BucketInfo::state)
        .findFirst()
        .orElseThrow();
  }

  private static Bucket hot(IndexStore store) throws Exception {
    List<Bucket> buckets = store.bucketsOverlapping(Long.MIN_VALUE, Long.MAX_VALUE);
    return buckets.getLast();
  }
}
