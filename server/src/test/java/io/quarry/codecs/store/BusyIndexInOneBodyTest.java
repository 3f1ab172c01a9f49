package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.server.ingest.IndexedEvent;
import io.quarry.server.ingest.IngestGate;
import io.quarry.server.ingest.IngestService;
import io.quarry.server.metrics.ServerMetrics;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * review-c37 (hecatomic): an index that refuses adds because its compaction lags ({@link
 * IndexBusyException}) is a refusal the server can decide before it writes anything — the state
 * (full buckets waiting, hot bucket at twice its limit) is there before the request and stays until
 * a bucket rolls. A body for an idle index and that busy one must store nothing: a 503 after the
 * idle index's events were stored makes every shipper's retry (HEC clients resend the whole body on
 * 503, and go on doing so while the index stays busy) store them again. In the server module
 * because it drives the real {@link IngestService}; in this package to hold the busy index's
 * compaction with the store's own test fixture ({@link FaultyDirectories}, from the codecs
 * test-jar).
 */
class BusyIndexInOneBodyTest {
  @TempDir Path data;

  @Test
  void aBodyForAnIdleIndexAndABusyOneStoresNothing() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Map<String, IndexOptions> options = new LinkedHashMap<>();
    options.put("main", IndexOptions.DEFAULTS);
    options.put(
        "web",
        IndexOptions.builder()
            .maxBucketEvents(1_000)
            .maxHotAge(Duration.ofHours(1))
            .commitInterval(Duration.ofMillis(50))
            .format(BucketFormat.BLOCKS)
            .compaction(new CompactionSettings(true, Duration.ofDays(1), 1L << 40))
            .maxWaitingBuckets(1)
            .build());
    try (EventStore store =
        EventStore.open(
            data,
            options,
            Clock.systemUTC(),
            EventStore.DEFAULT_COMMITTER_THREADS,
            name ->
                name.equals("web")
                    ? FaultyDirectories.holdingCompactions("", entered, release)
                    : FSDirectory::open)) {
      IndexStore web = store.index("web");
      try {
        web.add(events("w", 0, 1_500));
        web.commit(); // full: its compaction ahead of the roll starts, and is held
        assertThat(entered.await(60, TimeUnit.SECONDS)).as("web's held compaction").isTrue();
        web.add(events("w", 1_500, 2_000)); // the hot bucket now holds twice its limit
        web.commit();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        boolean busy = false;
        while (!busy && System.nanoTime() < deadline) {
          try {
            web.add(events("probe", 0, 0 + 1));
          } catch (IndexBusyException e) {
            busy = true;
          }
          if (!busy) {
            web.add(events("w", 10_000, 1_000));
            web.commit();
            Thread.sleep(50);
          }
        }
        assertThat(busy).as("web refuses adds (compaction lags behind ingest)").isTrue();

        IngestService ingest =
            new IngestService(
                store, new ServerMetrics(), Sourcetypes.builtIn(), new IngestGate(1, 1 << 20));
        List<IndexedEvent> body = new ArrayList<>();
        for (Event event : events("main-", 0, 3)) {
          body.add(new IndexedEvent("main", event));
        }
        body.add(new IndexedEvent("web", events("web-", 0, 1).getFirst()));
        assertThatThrownBy(() -> ingest.write(body)).isInstanceOf(IOException.class);
        assertThat(store.index("main").count())
            .as("a body one of whose indexes was busy before it came stores nothing")
            .isZero();
      } finally {
        release.countDown();
      }
    }
  }

  private static List<Event> events(String prefix, int from, int count) {
    List<Event> events = new ArrayList<>(count);
    for (int i = from; i < from + count; i++) {
      events.add(
          new Event(
              1_767_744_000_000_000L + i,
              prefix + " event " + i,
              "h",
              "s",
              "st",
              Map.<String, List<String>>of()));
    }
    return events;
  }
}
