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
 * Review probe: events of equal {@code _time} (one-second log timestamps) spread over several
 * buckets come out of the time-ordered scan in an order that depends on the layout, so a {@code
 * head} over ties answers differently in the events and the blocks layout.
 */
class TimeOrderedTiesTest {
  @TempDir Path data;

  private static final long SECOND = 1_700_000_000_000_000L;

  @Test
  void tiesComeInTheSameOrderInBothLayouts() throws Exception {
    Map<String, IndexOptions> options =
        Map.of(
            "events", IndexOptions.DEFAULTS.withFormat(BucketFormat.EVENTS),
            "blocks", IndexOptions.DEFAULTS.withFormat(BucketFormat.BLOCKS).withBlockEvents(8));
    try (EventStore store = EventStore.open(data, options)) {
      int n = 0;
      for (int batch = 0; batch < 3; batch++) {
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
          // two distinct seconds only: every event ties with many others
          long time = SECOND + (i % 2) * 1_000_000L;
          events.add(new Event(time, "event " + n++, "h", "s", "st", Map.of()));
        }
        store.write("events", events);
        store.write("blocks", events);
        store.index("events").rollHotBucket();
        store.index("blocks").rollHotBucket();
      }
      List<String> events = order(store, "events");
      List<String> blocks = order(store, "blocks");
      assertThat(events).hasSize(60);
      assertThat(blocks).hasSize(60);
      assertThat(blocks.subList(0, 10)).as("head 10 over ties").isEqualTo(events.subList(0, 10));
      assertThat(blocks).isEqualTo(events);
    }
  }

  private static List<String> order(EventStore store, String index) throws Exception {
    List<String> seen = new ArrayList<>();
    store.scan(
        List.of(index),
        new MatchAllDocsQuery(),
        Long.MIN_VALUE,
        Long.MAX_VALUE,
        event -> seen.add(event.timeMicros() + " " + event.raw()),
        cursor -> {
          while (cursor.advance(7)) {
            // pulled 7 at a time
          }
        });
    return seen;
  }
}
