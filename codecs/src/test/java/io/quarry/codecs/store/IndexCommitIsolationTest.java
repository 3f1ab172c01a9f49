package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index whose commit is slow (its disk's fsync stalls) delays neither the other indexes' commits
 * nor its own acknowledgements: it holds one thread of the node's committer pool ({@link
 * CommitterPool}, two threads here) and the others commit on the other. With one committer thread
 * for every index (main at 83256c36, or a pool of one) the other indexes' commits waited for the
 * stalled one, and this test failed at its bound.
 */
class IndexCommitIsolationTest {
  @TempDir Path data;

  /** A loose bound for a commit due every 100 ms, on a machine loaded by other builds. */
  private static final int COMMIT_BOUND_SECONDS = 20;

  /** The committer pool: one thread for the stalled index, one for every other. */
  private static final int THREADS = 2;

  private static final List<String> FAST = List.of("fast-a", "fast-b", "fast-c", "fast-d");

  @Test
  void aStalledCommitOfOneIndexDoesNotDelayAnothersCommit() throws Exception {
    AtomicBoolean armed = new AtomicBoolean();
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    IndexOptions options = IndexOptions.builder().commitInterval(Duration.ofMillis(100)).build();
    Map<String, IndexOptions> indexes = new LinkedHashMap<>();
    indexes.put("slow", options); // opened first: on a shared thread its commit runs first
    for (String fast : FAST) {
      indexes.put(fast, options);
    }
    try (EventStore store =
        EventStore.open(
            data,
            indexes,
            Clock.systemUTC(),
            THREADS,
            index ->
                index.equals("slow")
                    ? FaultyDirectories.holdingSyncs(armed, entered, release)
                    : FSDirectory::open)) {
      try {
        armed.set(true);
        store.index("slow").add(NumberedEvents.events(0, 100));
        assertThat(entered.await(COMMIT_BOUND_SECONDS, TimeUnit.SECONDS))
            .as("slow's commit reached its fsync")
            .isTrue();

        long start = System.nanoTime();
        store.index("slow").add(NumberedEvents.events(100, 100));
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start))
            .as("an add to the index whose commit stalls is acknowledged (its log fsync'd)")
            .isLessThan(COMMIT_BOUND_SECONDS);
        for (String fast : FAST) {
          store.index(fast).add(NumberedEvents.events(0, 100));
        }
        for (String fast : FAST) {
          Timed.until(COMMIT_BOUND_SECONDS, () -> CommittedDocuments.of(data, fast) > 0);
          assertThat(CommittedDocuments.of(data, fast))
              .as("%s committed within %d s while slow's commit stalls", fast, COMMIT_BOUND_SECONDS)
              .isPositive();
        }
        assertThat(store.committerPool().liveThreads())
            .as("committer threads of %d indexes (the pool's and its timer)", FAST.size() + 1)
            .hasSizeBetween(1, THREADS + 1);
        assertThat(entered.getCount()).isZero();
        assertThat(release.getCount()).as("slow's commit still stalls").isOne();
      } finally {
        armed.set(false);
        release.countDown();
      }
    }
    try (EventStore store = EventStore.open(data, indexes.keySet())) {
      assertThat(StoredRaws.of(store.index("slow")))
          .hasSize(200)
          .allSatisfy((raw, n) -> assertThat(n).isOne());
      for (String fast : FAST) {
        assertThat(StoredRaws.of(store.index(fast)))
            .hasSize(100)
            .allSatisfy((raw, n) -> assertThat(n).isOne());
      }
    }
  }
}
