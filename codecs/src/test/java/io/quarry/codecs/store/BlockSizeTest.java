package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.codecs.block.EventBlockFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The events per block ({@link IndexOptions#blockEvents}): a batch is cut into blocks of at most
 * that many consecutive events, and a bucket whose blocks were written at different sizes (the
 * setting changed between two runs of the server) reads back every event once, newest first.
 */
class BlockSizeTest {
  @TempDir Path data;

  private static final long T0 = 1_700_000_000_000_000L;

  /**
   * {@code size} events with distinct times (drawn from {@code times}), numbered from {@code n}.
   */
  private static List<Event> batch(Random random, Set<Long> times, int n, int size) {
    List<Event> batch = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      long time;
      do {
        time = T0 + random.nextInt(50_000_000) * 1_000L;
      } while (!times.add(time));
      String raw = "event" + (n + i) + (i % 97 == 0 ? " rareword" : " common");
      batch.add(new Event(time, raw, "h", "s", "st", Map.of()));
    }
    return batch;
  }

  /** The block documents of an index's buckets, read from disk once the store is closed. */
  private long blockDocuments(String index) throws Exception {
    long documents = 0;
    List<Path> markers;
    try (var files = Files.walk(data)) {
      markers =
          files
              .filter(f -> f.getFileName().toString().equals(BucketFormat.MARKER))
              .filter(f -> f.toString().contains("/" + index + "/"))
              .toList();
    }
    assertThat(markers).isNotEmpty();
    for (Path marker : markers) {
      try (var directory = FSDirectory.open(marker.getParent());
          var reader = DirectoryReader.open(directory)) {
        documents += reader.maxDoc();
      }
    }
    return documents;
  }

  private static List<String> newestFirst(EventStore store, String index) throws Exception {
    List<String> seen = new ArrayList<>();
    store.scan(
        List.of(index),
        new MatchAllDocsQuery(),
        Long.MIN_VALUE,
        Long.MAX_VALUE,
        e -> seen.add(e.timeMicros() + " " + e.raw()));
    return seen;
  }

  @Test
  void batchesAreCutAtTheConfiguredSizeAndMixedSizesReadBack() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    Set<Long> times = new HashSet<>();
    List<Event> all = new ArrayList<>();
    IndexOptions small = IndexOptions.builder().format(BucketFormat.BLOCKS).blockEvents(7).build();
    long blocks = 0;
    try (EventStore store = EventStore.open(data, Map.of("bl", small))) {
      for (int size : new int[] {1, 7, 8, 20, 300}) {
        List<Event> batch = batch(random, times, all.size(), size);
        store.write("bl", batch);
        all.addAll(batch);
        blocks += (size + 6) / 7;
      }
    }
    assertThat(blockDocuments("bl")).as("seed " + seed).isEqualTo(blocks);
    IndexOptions large = small.toBuilder().blockEvents(EventBlockFormat.MAX_EVENTS).build();
    try (EventStore store = EventStore.open(data, Map.of("bl", large))) {
      for (int size : new int[] {4096, 9000, 5}) {
        List<Event> batch = batch(random, times, all.size(), size);
        store.write("bl", batch);
        all.addAll(batch);
        blocks += (size + 4095) / 4096;
      }
      List<String> expected =
          all.stream()
              .sorted((a, b) -> Long.compare(b.timeMicros(), a.timeMicros()))
              .map(e -> e.timeMicros() + " " + e.raw())
              .toList();
      assertThat(newestFirst(store, "bl")).as("seed " + seed).isEqualTo(expected);
      // a rare term's candidates are whole blocks of either size: checked per event, it finds
      // exactly the events that have it
      List<String> rare = new ArrayList<>();
      store.scan(
          List.of("bl"),
          new TermQuery(new Term(EventFields.TOKENS, "rareword")),
          Long.MIN_VALUE,
          Long.MAX_VALUE,
          e -> rare.add(e.timeMicros() + " " + e.raw()));
      assertThat(rare.stream().filter(e -> e.endsWith(" rareword")).toList())
          .as("seed " + seed)
          .isEqualTo(expected.stream().filter(e -> e.endsWith(" rareword")).toList());
      assertThat(store.index("bl").count()).isEqualTo(all.size());
    }
    assertThat(blockDocuments("bl")).as("seed " + seed).isEqualTo(blocks);
  }

  @Test
  void aBlockSizeOutsideTheFormatsLimitIsRefused() {
    assertThatThrownBy(() -> IndexOptions.builder().blockEvents(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("blockEvents");
    assertThatThrownBy(
            () -> IndexOptions.builder().blockEvents(EventBlockFormat.MAX_EVENTS + 1).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("between 1 and 4096");
  }
}
