package io.quarry.codecs.store;

import static io.quarry.codecs.store.NumberedEvents.events;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.IOContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A full bucket whose first commit fails, on a real store: the scheduled commit that rolls it opens
 * the next hot bucket and commits the full one, whose flush fails (a disk error on its first
 * segment file, injected through the store's bucket directories), so its writer fails before it
 * ever committed. The next scheduled commit recovers ({@link LogRecovery#reopenFailed}: the bucket
 * reopened from its last commit — none, so empty — and the log replayed into the hot bucket), then
 * rolls the waiting bucket ({@link FullBucketRolls#rollWaiting}), which must count no committed
 * segments rather than fail reading a commit that does not exist ({@code
 * HotBucketCompaction.committedSegments}; {@link InlineRollNeverCommittedTest} checks it on a
 * bucket alone). Every acknowledged event is then found exactly once, before and after a restart,
 * with compaction inline and deferred.
 */
class FirstCommitFailureRollTest {
  @TempDir Path data;

  private final ManualScheduler scheduler = new ManualScheduler();

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aFullBucketWhoseFirstCommitFailedIsRecoveredAndRolls(boolean inline) throws Exception {
    IndexOptions options =
        IndexOptions.builder()
            .format(BucketFormat.BLOCKS)
            .maxBucketEvents(100)
            .commitInterval(Duration.ofHours(1)) // the test runs the scheduled commits
            .compaction(inline ? CompactionSettings.INLINE : CompactionSettings.DEFAULTS)
            .build();
    AtomicBoolean armed = new AtomicBoolean();
    BucketDirectories failing =
        FaultyDirectories.failing(
            context -> context.context() == IOContext.Context.FLUSH && armed.getAndSet(false));
    BucketDirectories firstBucketFails =
        path ->
            path.getFileName().toString().equals("1") ? failing.open(path) : FSDirectory.open(path);
    Path index = data.resolve("main");
    try (IndexStore store =
        new IndexStore("main", index, options, scheduler, Clock.systemUTC(), firstBucketFails)) {
      store.add(events(0, 100)); // acknowledged: in the log, the bucket full, nothing committed
      Path first = index.resolve("buckets").resolve("1");
      try (var directory = FSDirectory.open(first)) {
        assertThat(DirectoryReader.indexExists(directory)).as("never committed").isFalse();
      }

      armed.set(true);
      scheduler.maintenance(0); // rolls: a new hot bucket, the full one's first commit fails
      assertThat(armed).as("the injected failure was met").isFalse();
      assertThat(states(store)).containsExactly("1 failed 100", "2 hot 0");

      scheduler.maintenance(0); // recovers (bucket 1 reopened empty, the log replayed), rolls
      assertThat(states(store)).containsExactly("1 warm 0", "2 hot 100");
      assertEveryEventOnce(store);
    }
    try (IndexStore store =
        new IndexStore("main", index, options, scheduler, Clock.systemUTC(), FSDirectory::open)) {
      assertEveryEventOnce(store);
      assertThat(states(store)).containsExactly("1 warm 0", "2 hot 100");
    }
  }

  private static List<String> states(IndexStore store) throws Exception {
    return store.buckets().stream()
        .map(bucket -> bucket.id() + " " + bucket.state() + " " + bucket.events())
        .toList();
  }

  private static void assertEveryEventOnce(IndexStore store) throws Exception {
    Map<String, Integer> found = StoredRaws.of(store);
    assertThat(found).hasSize(100);
    assertThat(found.values()).allMatch(count -> count == 1);
  }
}
