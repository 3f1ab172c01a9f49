package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Review c36 of compact2: a full bucket waiting for its roll while its roll fails and is retried,
 * or while its index backs off after a failed compaction. Each test failed on compact2 (4f3e365e).
 */
class WaitingBucketTest {
  @RegisterExtension final StoreFixture stores = new StoreFixture();

  private static IndexOptions options(Duration idle, Optional<Long> maxTotalBytes) {
    return IndexOptions.builder()
        .maxBucketEvents(5_000)
        .format(BucketFormat.BLOCKS)
        .compaction(new CompactionSettings(true, idle, 1L << 40))
        .maxTotalBytes(maxTotalBytes)
        .build();
  }

  private IndexStore open(IndexOptions options, BucketDirectories directories, int permits)
      throws IOException {
    return stores.open("main", options, directories, new CompactionPermits(permits));
  }

  /**
   * Makes every roll of bucket {@code id} fail after its writer closed (as a full disk would): the
   * roll writes its manifest through a temporary file, and a directory stands in its place.
   */
  private static void blockRollOf(IndexStore store, long id) throws IOException {
    Files.createDirectories(
        store.bucketPath(id).resolve(Bucket.MANIFEST + ".tmp").resolve("in-the-way"));
  }

  /**
   * Runs the {@code store}-th store's maintenance, then waits for the compaction it started and for
   * every merge the full bucket's roll waits for ({@link HotBucketCompaction#compactionMerging}: a
   * later round the compaction cascades into, or a natural merge it joined). Waiting only for the
   * compaction count to rise with none running let the next maintenance find a merge still
   * registered and not try the roll at all (the bucket listed {@code rolling}, not {@code failed},
   * once at load ~10).
   */
  private void fillsAndCompactsAhead(IndexStore store, int index) throws Exception {
    stores.scheduler().maintenance(index);
    Timed.until(
        30,
        () ->
            store.compaction().compactions() > 0
                && !store.compaction().running()
                && !rollWaitsForAMerge(store));
    assertThat(store.compaction().compactions()).as("compacted ahead of its roll").isPositive();
    assertThat(rollWaitsForAMerge(store)).as("no merge left for the roll to wait for").isFalse();
  }

  /** Whether a full bucket of {@code store} waits for a merge before its roll. */
  private static boolean rollWaitsForAMerge(IndexStore store) throws IOException {
    return store.bucketsOverlapping(Long.MIN_VALUE, Long.MAX_VALUE).stream()
        .filter(bucket -> bucket.hotCompaction().waitsForRoll())
        .anyMatch(bucket -> bucket.hotCompaction().compactionMerging());
  }

  /**
   * Size retention ({@code maxTotalBytes}) was deferred for as long as any full bucket waited for
   * its roll. Since compact2 a failing scheduled roll is retried instead of failing the commit, so
   * a bucket whose roll keeps failing (a full disk: its manifest cannot be written) waits for good,
   * and with it every size deletion of its index: the retention that would free the disk never ran.
   */
  @Test
  void sizeRetentionGoesOnWhileAFullBucketsRollKeepsFailing() throws Exception {
    long warmBytes = 0;
    try (IndexStore store =
        open(options(Duration.ofDays(1), Optional.empty()), FSDirectory::open, 1)) {
      StoreFixture.fill(store, 0, 6_000);
      store.rollHotBucket();
      StoreFixture.fill(store, 6_000, 6_000);
      store.rollHotBucket();
      for (BucketInfo bucket : store.buckets()) {
        warmBytes += bucket.state().equals("warm") ? bucket.bytes() : 0;
      }
    }
    // the two warm buckets fit the limit; a third bucket's worth does not, whatever it compacts to
    long limit = warmBytes * 3 / 2;
    try (IndexStore store =
        open(options(Duration.ofDays(1), Optional.of(limit)), FSDirectory::open, 1)) {
      long oldest = store.buckets().getFirst().id();
      long full = store.buckets().getLast().id();
      assertThat(store.buckets())
          .extracting(BucketInfo::state)
          .containsExactly("warm", "warm", "hot");
      blockRollOf(store, full);
      StoreFixture.fill(store, 12_000, 6_000);
      fillsAndCompactsAhead(store, 1);
      store.add(NumberedEvents.events(18_000, 2_000)); // the new hot bucket
      for (int commit = 0; commit < 4; commit++) {
        stores.scheduler().maintenance(1); // the roll fails and is retried; retention runs after it
        Thread.sleep(1_100); // past the first retry's delay
      }
      // a roll that failed after closing its writer leaves the bucket failed until the next
      // commit or search recovers it (listed failed meanwhile): a search's recovery first
      store.bucketsOverlapping(Long.MIN_VALUE, Long.MAX_VALUE);
      assertThat(
              store.buckets().stream()
                  .filter(b -> b.id() == full)
                  .findFirst()
                  .orElseThrow()
                  .state())
          .as("the bucket whose roll fails")
          .isNotEqualTo("warm");
      long total = 0;
      for (BucketInfo bucket : store.buckets()) {
        total += bucket.bytes();
      }
      assertThat(store.buckets().getFirst().id())
          .as(
              "oldest bucket left: the index holds %s bytes for a limit of %s, its two warm"
                  + " buckets alone %s",
              total, limit, warmBytes)
          .isNotEqualTo(oldest);
      assertThat(StoredRaws.of(store))
          .as("events left once the oldest bucket went")
          .hasSize(14_000);
    }
  }

  /**
   * A full bucket whose scheduled roll failed after closing its writer is reopened by the next
   * recovery (a search, an add or a commit) as a plain writable bucket: until a later commit marked
   * it waiting again it was listed {@code hot} beside the real hot bucket and its index's roll not
   * {@code due} (and {@code RollRetryTest}'s listing depended on that commit coming within the 1 s
   * retry delay). Nothing about it changed but its writer: it still waits for its roll.
   */
  @Test
  void aBucketReopenedAfterItsRollFailedStillWaitsForItsRoll() throws Exception {
    try (IndexStore store =
        open(options(Duration.ofDays(1), Optional.empty()), FSDirectory::open, 1)) {
      blockRollOf(store, store.buckets().getFirst().id());
      StoreFixture.fill(store, 0, 6_000);
      fillsAndCompactsAhead(store, 0);
      stores.scheduler().maintenance(0); // its roll fails

      assertThat(store.buckets())
          .as("listed while its writer is closed: review c36 found the listing threw")
          .extracting(BucketInfo::state)
          .containsExactly("failed", "hot");
      assertThat(store.bytesByKind()).isNotEmpty();
      store.bucketsOverlapping(Long.MIN_VALUE, Long.MAX_VALUE); // a search recovers it
      assertThat(store.buckets())
          .as("the reopened full bucket, then the hot one")
          .extracting(BucketInfo::state)
          .containsExactly("rolling", "hot");
      assertThat(store.compaction().due()).as("its roll is still to come").isTrue();
      assertThat(StoredRaws.of(store)).hasSize(6_000).allSatisfy((raw, n) -> assertThat(n).isOne());
    }
  }

  /**
   * The compaction back-off after a failed compaction ({@link IndexCompaction#backingOff}) holds
   * back the next compaction's merges; a full bucket whose compaction ahead of its roll already
   * ended has none left, its roll only commits. compact2 held that roll back for the whole back-off
   * (a minute, doubling up to an hour), the bucket keeping its node permit and its index's hot
   * bucket going on past its limit meanwhile.
   */
  @Test
  void aCompactedFullBucketRollsDuringABackOffAnotherBucketCaused() throws Exception {
    AtomicBoolean failCompactions = new AtomicBoolean();
    BucketDirectories failing =
        FaultyDirectories.failing(
            context -> FaultyDirectories.compaction(context) && failCompactions.get());
    try (IndexStore store = open(options(Duration.ZERO, Optional.empty()), failing, 2)) {
      StoreFixture.fill(store, 0, 6_000);
      fillsAndCompactsAhead(store, 0);
      assertThat(store.buckets()).extracting(BucketInfo::state).containsExactly("rolling", "hot");

      // the hot bucket's idle compaction (the node's second permit) fails: a back-off starts
      failCompactions.set(true);
      store.add(NumberedEvents.events(6_000, 2_000)); // no commit: a commit would roll it now
      stores.scheduler().compaction(0); // flushes them, then its merge fails
      Timed.until(30, () -> writerFailed(store));
      assertThat(writerFailed(store)).as("the hot bucket's idle compaction failed").isTrue();

      stores
          .scheduler()
          .maintenance(0); // recovers the hot bucket (the back-off starts), then rolls
      assertThat(store.buckets())
          .as("the compacted full bucket's roll merges nothing")
          .extracting(BucketInfo::state)
          .containsExactly("warm", "hot");
      assertThat(StoredRaws.of(store)).hasSize(8_000).allSatisfy((raw, n) -> assertThat(n).isOne());
    }
  }

  /** Whether the listing shows a failed writer (a listing recovers none). */
  private static boolean writerFailed(IndexStore store) throws IOException {
    return store.buckets().stream().anyMatch(bucket -> bucket.state().equals("failed"));
  }
}
