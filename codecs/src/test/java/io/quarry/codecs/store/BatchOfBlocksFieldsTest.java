package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One batch that fills several blocks keeps every event's index-time fields, each block tallied on
 * its own: a keyword field some events of each block lack and one event of a block holds twice
 * reads back as it was added, both values. (A tally shared by the blocks of a batch that kept the
 * count of events with a value from the block before took the second block's two values of one
 * event for one value each of two events, coded the event by its last value alone and left the
 * column out of the payload: the event read back with one value.)
 */
class BatchOfBlocksFieldsTest {
  @TempDir Path data;

  @Test
  void everyBlockOfABatchKeepsItsEventsMultivaluedFields() throws Exception {
    IndexOptions options =
        IndexOptions.builder().format(BucketFormat.BLOCKS).blockEvents(4).build();
    List<Event> batch = new ArrayList<>();
    for (int i = 1; i <= 8; i++) {
      // one event of each block holds two values of f; the others none, nor f= in their text
      Map<String, List<String>> fields =
          i == 2 || i == 7 ? Map.of("f", List.of("a" + i, "b" + i)) : Map.of();
      batch.add(new Event(i * 1000L, "event " + i, "h", "s", "t", fields));
    }
    try (EventStore store = EventStore.open(data, Map.of("main", options))) {
      store.write("main", batch);
      Map<String, Map<String, List<String>>> read = new TreeMap<>();
      store.scan(
          List.of("main"),
          new MatchAllDocsQuery(),
          Long.MIN_VALUE,
          Long.MAX_VALUE,
          e -> {
            read.put(e.raw(), new TreeMap<>(e.indexedFields()));
            return true;
          });
      assertThat(read).hasSize(8);
      assertThat(read.get("event 2")).isEqualTo(Map.of("f", List.of("a2", "b2")));
      assertThat(read.get("event 7")).isEqualTo(Map.of("f", List.of("a7", "b7")));
      for (int i : new int[] {1, 3, 4, 5, 6, 8}) {
        assertThat(read.get("event " + i)).as("event %d", i).isEmpty();
      }
    }
  }
}
