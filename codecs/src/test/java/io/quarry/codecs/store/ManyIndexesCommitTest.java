package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fifty indexes commit on a committer pool of three threads ({@link CommitterPool}): each index's
 * scheduled commit makes its events durable in its buckets, and the store holds three committer
 * threads and a timer, not fifty (one per index before the pool). The threads counted are the
 * store's own ({@link CommitterPool#liveThreads}), not every committer thread of the JVM: another
 * test's store still open would have made this one fail.
 */
class ManyIndexesCommitTest {
  @TempDir Path data;

  private static final int INDEXES = 50;
  private static final int THREADS = 3;
  private static final int BOUND_SECONDS = 60;

  @Test
  void fiftyIndexesCommitOnThreeThreads() throws Exception {
    IndexOptions options = IndexOptions.builder().commitInterval(Duration.ofMillis(100)).build();
    Map<String, IndexOptions> indexes = new LinkedHashMap<>();
    for (int index = 0; index < INDEXES; index++) {
      indexes.put("index-" + index, options);
    }
    CommitterPool pool;
    try (EventStore store =
        EventStore.open(
            data,
            indexes,
            Clock.systemUTC(),
            THREADS,
            index -> org.apache.lucene.store.FSDirectory::open)) {
      pool = store.committerPool();
      for (String index : indexes.keySet()) {
        store.index(index).add(NumberedEvents.events(0, 20));
      }
      for (String index : indexes.keySet()) {
        Timed.until(BOUND_SECONDS, () -> CommittedDocuments.of(data, index) == 20);
        assertThat(CommittedDocuments.of(data, index))
            .as("%s's events committed by its scheduled commit", index)
            .isEqualTo(20);
      }
      assertThat(pool.liveThreads())
          .as("committer threads of %d indexes: the pool's and its timer", INDEXES)
          .hasSizeBetween(1, THREADS + 1)
          .allSatisfy(thread -> assertThat(thread.getName()).startsWith("quarry-committer-"));
    }
    Timed.until(BOUND_SECONDS, () -> pool.liveThreads().isEmpty());
    assertThat(pool.liveThreads()).as("the pool stopped with the store").isEmpty();
  }
}
