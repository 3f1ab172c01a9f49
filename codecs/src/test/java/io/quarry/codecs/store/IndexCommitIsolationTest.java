package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index whose commit is slow (its disk's fsync stalls) delays neither another index's commit nor
 * its own acknowledgements: each index commits on its own thread ({@link EventStore}'s committers).
 * With one committer thread for every index (main at 83256c36) the other index's commit waited for
 * the stalled one, and this test failed at its bound.
 */
class IndexCommitIsolationTest {
  @TempDir Path data;

  /** A loose bound for a commit due every 100 ms, on a machine loaded by other builds. */
  private static final int COMMIT_BOUND_SECONDS = 20;

  @Test
  void aStalledCommitOfOneIndexDoesNotDelayAnothersCommit() throws Exception {
    AtomicBoolean armed = new AtomicBoolean();
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    IndexOptions options = IndexOptions.builder().commitInterval(Duration.ofMillis(100)).build();
    Map<String, IndexOptions> indexes = new LinkedHashMap<>();
    indexes.put("slow", options); // opened first: on a shared thread its commit runs first
    indexes.put("fast", options);
    try (EventStore store =
        EventStore.open(
            data,
            indexes,
            Clock.systemUTC(),
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
        store.index("fast").add(NumberedEvents.events(0, 100));
        Timed.until(COMMIT_BOUND_SECONDS, () -> committedDocuments("fast") > 0);
        assertThat(committedDocuments("fast"))
            .as("fast committed within %d s while slow's commit stalls", COMMIT_BOUND_SECONDS)
            .isPositive();
        assertThat(entered.getCount()).isZero();
        assertThat(release.getCount()).as("slow's commit still stalls").isOne();
      } finally {
        armed.set(false);
        release.countDown();
      }
    }
    try (EventStore store = EventStore.open(data, List.of("slow", "fast"))) {
      assertThat(StoredRaws.of(store.index("slow")))
          .hasSize(200)
          .allSatisfy((raw, n) -> assertThat(n).isOne());
      assertThat(StoredRaws.of(store.index("fast")))
          .hasSize(100)
          .allSatisfy((raw, n) -> assertThat(n).isOne());
    }
  }

  /** The documents of the last Lucene commit of {@code index}'s buckets, read from disk. */
  private long committedDocuments(String index) throws IOException {
    long documents = 0;
    try (Stream<Path> buckets =
        Files.list(data.resolve("indexes").resolve(index).resolve("buckets"))) {
      for (Path bucket : buckets.filter(Files::isDirectory).toList()) {
        try (Directory directory = FSDirectory.open(bucket)) {
          if (DirectoryReader.indexExists(directory)) {
            try (DirectoryReader reader = DirectoryReader.open(directory)) {
              documents += reader.numDocs();
            }
          }
        }
      }
    }
    return documents;
  }
}
