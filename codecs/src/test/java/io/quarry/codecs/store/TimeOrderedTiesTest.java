package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Events of equal {@code _time} (one-second log timestamps) spread over several buckets and
 * segments come out of the time-ordered scan earlier-written first (buckets oldest first, a
 * bucket's segments in order, a segment's events in written order), in both layouts, however the
 * scan is pulled, and the same after the segments of a bucket merge.
 */
class TimeOrderedTiesTest {
  @TempDir Path data;

  private static final long SECOND = 1_700_000_000_000_000L;

  private static final Map<String, IndexOptions> OPTIONS =
      Map.of(
          "events", IndexOptions.builder().format(BucketFormat.EVENTS).build(),
          "blocks", IndexOptions.builder().format(BucketFormat.BLOCKS).blockEvents(8).build());

  /** Batch {@code batch}'s 20 events: two distinct seconds only, so each ties with many. */
  private static List<Event> batch(int batch) {
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      long time = SECOND + (i % 2) * 1_000_000L;
      events.add(new Event(time, "event " + (batch * 20 + i), "h", "s", "st", Map.of()));
    }
    return events;
  }

  /** Newest second first, each second's events in written order. */
  private static List<String> expected(int batches) {
    List<String> order = new ArrayList<>();
    for (int odd = 1; odd >= 0; odd--) {
      for (int n = odd; n < batches * 20; n += 2) {
        order.add((SECOND + odd * 1_000_000L) + " event " + n);
      }
    }
    return order;
  }

  @Test
  void tiesAcrossBucketsComeEarlierWrittenFirstInBothLayouts() throws Exception {
    try (EventStore store = EventStore.open(data, OPTIONS)) {
      for (int batch = 0; batch < 3; batch++) {
        for (String index : OPTIONS.keySet()) {
          store.write(index, batch(batch));
          store.index(index).rollHotBucket();
        }
      }
      for (String index : OPTIONS.keySet()) {
        assertThat(order(store, index, 7)).as(index).isEqualTo(expected(3));
        assertThat(order(store, index, 1))
            .as(index + ", pulled one at a time")
            .isEqualTo(expected(3));
      }
    }
  }

  @Test
  void tiesAcrossSegmentsKeepTheirOrderWhenTheSegmentsMerge() throws Exception {
    try (EventStore store = EventStore.open(data, OPTIONS)) {
      for (int batch = 0; batch < 3; batch++) {
        for (String index : OPTIONS.keySet()) {
          store.write(index, batch(batch));
          order(store, index, 7); // the search refreshes the hot bucket: a segment per batch
        }
      }
      for (String index : OPTIONS.keySet()) {
        assertThat(order(store, index, 7)).as(index + ", segments").isEqualTo(expected(3));
        store.index(index).rollHotBucket(); // merged into one segment
        assertThat(order(store, index, 7)).as(index + ", merged").isEqualTo(expected(3));
      }
    }
  }

  private static List<String> order(EventStore store, String index, int pull) throws Exception {
    List<String> seen = new ArrayList<>();
    store.scan(
        List.of(index),
        new MatchAllDocsQuery(),
        Long.MIN_VALUE,
        Long.MAX_VALUE,
        event -> seen.add(event.timeMicros() + " " + event.raw()),
        cursor -> {
          while (cursor.advance(pull)) {
            // pulled a few at a time
          }
        });
    return seen;
  }
}
