package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.Term;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A block whose {@value BlockDocuments#COUNT} doc value disagrees with the number of events its
 * journal payload holds is a damaged index: a real one-block bucket, written by the store, has its
 * count rewritten (a doc-values update, which Lucene's checksums cannot tell from the original),
 * and a scan that decodes the block's payload fails with {@link CorruptIndexException} naming both
 * counts ({@link BlockEvents}) instead of reading past the payload or dropping events.
 */
class BlockCountMismatchTest {
  @TempDir Path data;
  private final ExecutorService pool = Executors.newFixedThreadPool(2);

  @AfterEach
  void stopPool() {
    pool.shutdownNow();
  }

  private static final Map<String, IndexOptions> BLOCKS =
      Map.of("main", IndexOptions.builder().format(BucketFormat.BLOCKS).build());

  /** One warm bucket of one block of 10 events; its path. */
  private Path oneBlock() throws Exception {
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      events.add(
          new Event(
              1_700_000_000_000_000L + i * 1_000_000L, "event " + i, "h", "s", "st", Map.of()));
    }
    try (EventStore store = EventStore.open(data, BLOCKS)) {
      store.write("main", events);
      store.index("main").rollHotBucket();
    }
    return data.resolve("indexes/main/buckets/1");
  }

  /** Rewrites the one block's event count to {@code count}. */
  private static void recount(Path bucket, long count) throws Exception {
    ForgedBucket.rewrite(
        bucket,
        writer ->
            writer.updateNumericDocValue(
                new Term(EventFields.keywordField(EventFields.HOST), "h"),
                BlockDocuments.COUNT,
                count));
  }

  /** Every event's raw text (which decodes each block's payload) and the scan's warnings. */
  private record Scanned(List<String> raws, List<String> warnings) {}

  private Scanned scan(EventStore store) throws Exception {
    List<String> raws = java.util.Collections.synchronizedList(new ArrayList<>());
    ScanStats stats =
        Scans.visitEach(
            store,
            "main",
            Long.MIN_VALUE,
            Long.MAX_VALUE,
            () ->
                event -> {
                  raws.add(event.raw());
                  return true;
                },
            pool);
    return new Scanned(raws, stats.warnings());
  }

  @ParameterizedTest
  @ValueSource(ints = {9, 11})
  void aCountThatDisagreesWithThePayloadIsCorruption(int count) throws Exception {
    Path bucket = oneBlock();
    try (EventStore store = EventStore.open(data, BLOCKS)) {
      Scanned whole = scan(store); // the bucket as written reads whole
      assertThat(whole.raws()).hasSize(10);
      assertThat(whole.warnings()).isEmpty();
    }
    recount(bucket, count);
    try (EventStore store = EventStore.open(data, BLOCKS)) {
      // the block's payload is decoded for its first event: the counts disagree there, before any
      // event is visited, and the bucket is quarantined with a warning naming both counts
      Scanned damaged = scan(store);
      assertThat(damaged.raws()).isEmpty();
      assertThat(damaged.warnings())
          .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
          .contains("bucket 1 is damaged")
          .contains("block has 10 events, its doc values say " + count)
          .contains("quarantined");
      assertThat(bucket).doesNotExist();
      assertThat(data.resolve("indexes/main/quarantine/1")).isDirectory();
      assertThat(scan(store)).isEqualTo(new Scanned(List.of(), List.of()));
    }
  }
}
