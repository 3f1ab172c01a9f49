package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link EventStore#requireAccepting} answers, without writing, what {@link EventStore#write} would
 * refuse a batch with: a real store of two indexes whose {@code web} is held busy the way it gets
 * busy in production (its full bucket's compaction ahead of the roll does not finish, so with
 * {@code maxWaitingBuckets} 1 the hot bucket at twice its limit refuses adds). The caller of a
 * multi-index body asks every index first, so a busy index refuses the body before any index stored
 * a batch of it.
 */
class RequireAcceptingTest {
  @TempDir Path data;

  private static IndexOptions options() {
    return IndexOptions.builder()
        .maxBucketEvents(5_000)
        .maxHotAge(Duration.ofHours(1))
        .commitInterval(Duration.ofMillis(50))
        .format(BucketFormat.BLOCKS)
        .compaction(new CompactionSettings(true, Duration.ofDays(1), 1L << 40))
        .maxWaitingBuckets(1)
        .build();
  }

  @Test
  void aBusyIndexIsRefusedBeforeAnythingIsWrittenAndAnotherIsAccepted() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Map<String, IndexOptions> indexes = new LinkedHashMap<>();
    indexes.put("main", options());
    indexes.put("web", options());
    try (EventStore store =
        EventStore.open(
            data,
            indexes,
            Clock.systemUTC(),
            EventStore.DEFAULT_COMMITTER_THREADS,
            index ->
                index.equals("web")
                    ? FaultyDirectories.holdingCompactions("", entered, release)
                    : FSDirectory::open)) {
      IndexStore web = store.index("web");
      try {
        StoreFixture.fill(web, 0, 6_000); // full: its compaction ahead of the roll is held
        assertThat(entered.await(60, TimeUnit.SECONDS)).isTrue();
        StoreFixture.fill(web, 6_000, 10_000); // the hot bucket holds twice its limit
        assertThatThrownBy(() -> store.requireAccepting("web", NumberedEvents.events(16_000, 10)))
            .isInstanceOf(IndexBusyException.class)
            .hasMessageContaining("1 full buckets wait for their roll");
        store.requireAccepting("main", NumberedEvents.events(0, 10)); // main is not busy
        assertThat(store.index("main").count()).as("asking stores nothing").isZero();
        assertThat(web.count()).isEqualTo(16_000);
        assertThatThrownBy(() -> store.write("web", NumberedEvents.events(16_000, 10)))
            .as("the write refuses as the question said")
            .isInstanceOf(IndexBusyException.class);
      } finally {
        release.countDown();
      }
    }
  }

  @Test
  void aBatchTooLargeForItsLogIsRefusedBeforeAnythingIsWritten() throws Exception {
    Map<String, IndexOptions> indexes =
        Map.of("main", options().toBuilder().maxRecordBytes(4096).build());
    try (EventStore store = EventStore.open(data, indexes)) {
      assertThatThrownBy(() -> store.requireAccepting("main", NumberedEvents.events(0, 1_000)))
          .isInstanceOf(io.quarry.codecs.wal.WriteAheadLog.RecordTooLarge.class);
      store.requireAccepting("main", NumberedEvents.events(0, 1));
      assertThat(store.index("main").count()).isZero();
    }
  }
}
