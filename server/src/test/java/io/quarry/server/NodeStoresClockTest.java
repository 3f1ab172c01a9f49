package io.quarry.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.BucketInfo;
import io.quarry.codecs.store.Event;
import io.quarry.codecs.testing.SettableClock;
import io.quarry.server.config.QuarryConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The event store runs on the node's clock, as the metric store does: a hot bucket's age (and so
 * its roll at {@code storage.maxHotBucketAgeHours}) is counted on the clock the server was given.
 * Until session 40 {@link NodeStores#open} handed the event store the system clock whatever it was
 * given: a bucket made on a test's clock two hours ago did not roll.
 */
class NodeStoresClockTest {
  @TempDir Path dataDirectory;

  @Test
  void aHotBucketAgesOnTheNodesClock() throws Exception {
    QuarryConfig config =
        io.quarry.server.TestServers.settings(dataDirectory, "pw")
            .put("storage.commitIntervalSeconds", 1)
            .put("storage.maxHotBucketAgeHours", 1)
            .build();
    SettableClock clock = new SettableClock(Instant.parse("2020-01-01T00:00:00Z"));
    NodeStores stores = NodeStores.open(config, dataDirectory, config.compiledSourcetypes(), clock);
    try {
      stores
          .events()
          .write("main", List.of(new Event(1_000_000L, "one event", "h", "s", "st", Map.of())));
      clock.advance(Duration.ofHours(2)); // past maxHotBucketAgeHours on the node's clock only
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      List<String> states = states(stores);
      while (!states.contains("warm") && System.nanoTime() < deadline) {
        Thread.sleep(50); // the next scheduled commit (every second) rolls the old bucket
        states = states(stores);
      }
      assertThat(states).as("the bucket two hours old rolled").containsExactly("warm", "hot");
    } finally {
      stores.metrics().close();
      stores.events().close();
    }
  }

  private static List<String> states(NodeStores stores) throws Exception {
    return stores.events().index("main").buckets().stream().map(BucketInfo::state).toList();
  }
}
