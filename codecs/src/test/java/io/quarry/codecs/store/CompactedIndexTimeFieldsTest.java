package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.IndexTimeFieldReads.Read;
import io.quarry.codecs.store.IndexTimeFieldReads.Scan;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A compaction rewrites a hot bucket's fast segments as compact ones (blocks recompressed, their
 * doc values merged); every event keeps its index-time fields through it, read every way a search
 * reads them ({@link IndexTimeFieldReads}), in both layouts: before it, after it, and by searches
 * racing it while it swaps the segments (issue 21: one search of an every-field listing read an
 * event's {@code region} from its text where the other read its index-time value). The expected
 * fields are the events' own as added ({@link MixedFieldEvents}), not a read of the store.
 */
class CompactedIndexTimeFieldsTest {
  private static final long SEED = Long.getLong("quarry.compaction.fields.seed", 21);

  /** Segments of this many events, one commit each. */
  private static final int SEGMENT = 1_500;

  private static final int SEGMENTS = 4;

  private static final int EVENTS = SEGMENT * SEGMENTS;

  /** Blocks of this many events: a segment holds many, of every mix of the fields. */
  private static final int BLOCK_EVENTS = 100;

  @TempDir Path data;

  private final ExecutorService executor = Executors.newFixedThreadPool(2);

  @AfterEach
  void stop() {
    executor.shutdownNow();
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void compactionKeepsEveryEventsIndexTimeFields(BucketFormat format) throws Exception {
    try (HeldCompaction held = open(format)) {
      held.awaitHeld();
      if (format == BucketFormat.BLOCKS) { // blocks holding columns elsewhere, fully and partly
        assertThat(BlockValueCounts.anyCodesIn(held.store(), "dc")).isTrue();
        assertThat(BlockValueCounts.anyIn(held.store(), "one")).isTrue();
        assertThat(anyLuceneField(held.store(), BlockValueCodes.PARTIAL + "sess")).isTrue();
      }
      assertEveryWay(held.store(), "fast");
      held.release();
      held.awaitCompacted();
      assertEveryWay(held.store(), "compact");
    }
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void searchesRacingTheCompactionReadTheSameFields(BucketFormat format) throws Exception {
    try (HeldCompaction held = open(format)) {
      held.awaitHeld();
      AtomicBoolean compacted = new AtomicBoolean();
      ExecutorService racer = Executors.newSingleThreadExecutor();
      Future<Integer> searches =
          racer.submit(
              () -> {
                int runs = 0;
                // until two searches after the swap: the last ones see compact segments only
                for (int after = 0; after < 2; runs++) {
                  if (compacted.get()) {
                    after++;
                  }
                  Scan scan = Scan.values()[runs % 2];
                  Read read =
                      IndexTimeFieldReads.read(
                          held.store(), scan, 0, Long.MAX_VALUE, runs, executor);
                  assertRead(read, 0, EVENTS, "search " + runs + " " + scan + " racing");
                }
                return runs;
              });
      held.release();
      held.awaitCompacted();
      compacted.set(true);
      try {
        assertThat(searches.get(120, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(2);
      } finally {
        racer.shutdownNow();
      }
    }
  }

  private static boolean anyLuceneField(IndexStore store, String name) throws Exception {
    for (Bucket bucket : store.bucketsOverlapping(Long.MIN_VALUE, Long.MAX_VALUE)) {
      org.apache.lucene.search.IndexSearcher searcher = bucket.acquire();
      try {
        for (var leaf : searcher.getIndexReader().leaves()) {
          if (leaf.reader().getFieldInfos().fieldInfo(name) != null) {
            return true;
          }
        }
      } finally {
        bucket.release(searcher);
      }
    }
    return false;
  }

  /** The store, its segments fast and their compaction held. */
  private HeldCompaction open(BucketFormat format) throws Exception {
    HeldCompaction held = new HeldCompaction(data, format, BLOCK_EVENTS, MixedFieldEvents.TYPES);
    for (int segment = 0; segment < SEGMENTS; segment++) {
      held.store().add(MixedFieldEvents.events(SEED, segment * SEGMENT, SEGMENT));
      held.store().commit();
    }
    return held;
  }

  /** Every scan, over all time and over a range cutting blocks, each way of reading the fields. */
  private void assertEveryWay(IndexStore store, String segments) throws Exception {
    int from = 333;
    int to = EVENTS - 251;
    for (Scan scan : Scan.values()) {
      for (int salt = 0; salt < 3; salt++) {
        String as = segments + " " + scan + " salt " + salt;
        assertRead(
            IndexTimeFieldReads.read(store, scan, 0, Long.MAX_VALUE, salt, executor),
            0,
            EVENTS,
            as);
        assertRead(
            IndexTimeFieldReads.read(store, scan, from * 1000L, to * 1000L, salt, executor),
            from,
            to,
            as + " events " + from + " to " + to);
      }
    }
  }

  /** Events {@code [from, to)} each read once, its fields the ones it was added with. */
  private static void assertRead(Read read, int from, int to, String as) {
    assertThat(read.problems()).as(as).isEmpty();
    assertThat(read.fields()).as(as).hasSize(to - from);
    for (int i = from; i < to; i++) {
      Map<String, List<String>> added =
          new TreeMap<>(MixedFieldEvents.event(SEED, i).indexedFields());
      assertThat(read.fields().get(i)).as(as + ", event " + i).isEqualTo(added);
    }
  }
}
