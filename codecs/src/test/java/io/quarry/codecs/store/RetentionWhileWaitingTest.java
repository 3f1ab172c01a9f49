package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review c36 of compact2: size retention ({@code maxTotalBytes}) deferred for as long as a full
 * bucket waits for its roll. Since compact2 a failing scheduled roll is retried (every commit, with
 * a back-off) instead of failing the commit, so a bucket whose roll keeps failing (a full disk: its
 * manifest cannot be written) waits for good, and with it every size deletion of its index: the
 * retention that would free the disk never runs.
 */
class RetentionWhileWaitingTest {
  @TempDir Path data;

  private final ManualScheduler scheduler = new ManualScheduler();

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  private static IndexOptions options(Optional<Long> maxTotalBytes) {
    return IndexOptions.builder()
        .maxBucketEvents(5_000)
        .format(BucketFormat.BLOCKS)
        .compaction(new CompactionSettings(true, Duration.ofDays(1), 1L << 40))
        .maxTotalBytes(maxTotalBytes)
        .build();
  }

  private IndexStore open(Optional<Long> maxTotalBytes) throws Exception {
    return new IndexStore(
        "main",
        data.resolve("main"),
        options(maxTotalBytes),
        scheduler,
        Clock.systemUTC(),
        FSDirectory::open,
        new CompactionPermits(1));
  }

  /** 6,000 events from {@code from} in three committed segments: over the 5,000 of a bucket. */
  private static void fill(IndexStore store, int from) throws Exception {
    for (int segment = 0; segment < 3; segment++) {
      store.add(NumberedEvents.events(from + segment * 2_000, 2_000));
      store.commit();
    }
  }

  @Test
  void sizeRetentionGoesOnWhileAFullBucketsRollKeepsFailing() throws Exception {
    long warmBytes = 0;
    try (IndexStore store = open(Optional.empty())) {
      fill(store, 0);
      store.rollHotBucket();
      fill(store, 6_000);
      store.rollHotBucket();
      for (BucketInfo bucket : store.buckets()) {
        warmBytes += bucket.state().equals("warm") ? bucket.bytes() : 0;
      }
    }
    // the two warm buckets fit the limit; a third bucket's worth does not, whatever it compacts to
    long limit = warmBytes * 3 / 2;
    try (IndexStore store = open(Optional.of(limit))) {
      long oldest = store.buckets().getFirst().id();
      long full = store.buckets().getLast().id();
      assertThat(store.buckets())
          .extracting(BucketInfo::state)
          .containsExactly("warm", "warm", "hot");
      // its roll writes the manifest through a temporary file: a directory in its place fails
      // every roll of that bucket after its writer closed (as a full disk would)
      Path blocker = store.bucketPath(full).resolve(Bucket.MANIFEST + ".tmp");
      Files.createDirectories(blocker.resolve("in-the-way"));
      fill(store, 12_000);
      scheduler.maintenance(1); // the bucket fills and compacts ahead of its roll
      Timed.until(30, () -> store.compaction().compactions() > 0 && !store.compaction().running());
      assertThat(store.compaction().compactions()).isPositive();
      store.add(NumberedEvents.events(18_000, 2_000)); // the new hot bucket
      for (int commit = 0; commit < 4; commit++) {
        scheduler.maintenance(1); // the roll fails and is retried; retention runs after it
        Thread.sleep(1_100); // past the first retry's delay
      }
      // a roll that failed after closing its writer leaves the bucket failed until the next
      // commit or search recovers it (listing it meanwhile throws): a search's recovery first
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
}
