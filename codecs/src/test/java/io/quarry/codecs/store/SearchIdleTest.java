package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Search idle (as Elasticsearch's): the background refresher leaves alone a hot bucket nobody has
 * searched — from the moment it opens, not only 30 s after a search — and keeps refreshing one that
 * is being searched; a search always sees what was written before it.
 */
class SearchIdleTest {
  @TempDir Path data;

  @Test
  void aBucketIsSearchIdleUntilItsFirstSearch() throws Exception {
    try (EventStore store = EventStore.open(data, Map.of("main", IndexOptions.DEFAULTS))) {
      store.write("main", events(0, 5));
      Bucket hot = store.index("main").bucketsOverlapping(Long.MIN_VALUE, Long.MAX_VALUE).get(0);
      Thread.sleep(3 * IndexStore.REFRESH_INTERVAL_MILLIS);
      assertThat(hot.needsRefresh()).as("never searched: not refreshed in the background").isTrue();

      hot.release(hot.acquire()); // a search refreshes it itself and makes it active
      assertThat(hot.needsRefresh()).isFalse();
      store.write("main", events(5, 5));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (hot.needsRefresh() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(hot.needsRefresh()).as("searched: refreshed in the background").isFalse();
    }
  }

  private static List<Event> events(int from, int count) {
    List<Event> events = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      events.add(new Event(1_700_000_000_000_000L + i, "event " + i, "h", "s", "st", Map.of()));
    }
    return events;
  }
}
