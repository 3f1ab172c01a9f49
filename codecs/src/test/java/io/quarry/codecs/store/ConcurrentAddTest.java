package io.quarry.codecs.store;

import static io.quarry.codecs.store.NumberedEvents.events;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.IOContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Adds go on while the index is busy elsewhere: two adds index at once (as two ingest pipelines
 * do), and a bucket rolling to warm (its merge) does not hold up an add to the new hot bucket;
 * every event is stored once.
 */
class ConcurrentAddTest {
  @TempDir Path dataDirectory;

  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
  private final ExecutorService second = Executors.newSingleThreadExecutor();

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
    second.shutdownNow();
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void anAddHeldInsideLuceneDoesNotHoldUpAnother(BucketFormat format) throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    // the first document a Lucene thread state takes opens its stored-fields file: the add on the
    // thread named "first" waits there, inside the bucket's writer, until released
    BucketDirectories directories =
        FaultyDirectories.holding(
            context -> Thread.currentThread().getName().equals("first"), entered, release);
    try (IndexStore store =
        new IndexStore(
            "main",
            dataDirectory.resolve("main"),
            IndexOptions.builder().format(format).build(),
            scheduler,
            Clock.systemUTC(),
            directories)) {
      Background first = Background.start("first", () -> store.add(events(0, 10)));
      assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
      try {
        Future<Long> other = second.submit(() -> store.add(events(10, 5)));
        assertThat(other.get(30, TimeUnit.SECONDS)).isEqualTo("event 10".length() * 5L);
      } finally {
        release.countDown();
      }
      assertThat(first.join()).isEmpty();
      assertThat(store.count()).isEqualTo(15);
    }
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void aRollingBucketDoesNotHoldUpAnAdd(BucketFormat format) throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    // the roll's merge waits as it opens its first file, inside the old bucket's roll
    BucketDirectories directories =
        FaultyDirectories.holding(
            context -> context.context() == IOContext.Context.MERGE, entered, release);
    try (IndexStore store =
        new IndexStore(
            "main",
            dataDirectory.resolve("main"),
            IndexOptions.builder()
                .format(format)
                .commitInterval(java.time.Duration.ofHours(1))
                .build(),
            scheduler,
            Clock.systemUTC(),
            directories)) {
      for (int segment = 0; segment < 5; segment++) { // more segments than a roll merges down to
        store.add(events(segment * 10, 10));
        store.commit();
      }
      Background roll = Background.start("roll", store::rollHotBucket);
      assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
      try {
        Future<Long> other = second.submit(() -> store.add(events(50, 5)));
        assertThat(other.get(30, TimeUnit.SECONDS)).isEqualTo("event 50".length() * 5L);
      } finally {
        release.countDown();
      }
      assertThat(roll.join()).isEmpty();
      assertThat(store.count()).isEqualTo(55);
    }
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void rollingTheLogWaitsForTheAddInsideLuceneWithoutHoldingUpAnother(BucketFormat format)
      throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    BucketDirectories directories =
        FaultyDirectories.holding(
            context -> Thread.currentThread().getName().equals("first"), entered, release);
    Path path = dataDirectory.resolve("main");
    IndexOptions options =
        IndexOptions.builder().format(format).commitInterval(java.time.Duration.ofHours(1)).build();
    try (IndexStore store =
        new IndexStore("main", path, options, scheduler, Clock.systemUTC(), directories)) {
      Background first = Background.start("first", () -> store.add(events(0, 10)));
      assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
      // the roll of the log (and of the bucket) waits for the add logged before it
      Background roll = Background.start("roll", store::rollHotBucket);
      List<Throwable> failures = new ArrayList<>();
      try {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (roll.state() != Thread.State.WAITING && System.nanoTime() < deadline) {
          Thread.sleep(1);
        }
        assertThat(roll.state()).isEqualTo(Thread.State.WAITING);
        // ... while an add that comes after it is stored at once (it had waited for the roll,
        // which had waited for the first add's indexing)
        Future<Long> other = second.submit(() -> store.add(events(10, 5)));
        assertThat(other.get(30, TimeUnit.SECONDS)).isEqualTo("event 10".length() * 5L);
        assertThat(roll.state()).isNotEqualTo(Thread.State.TERMINATED);
      } finally {
        release.countDown();
        failures.addAll(first.join());
        failures.addAll(roll.join());
      }
      assertThat(failures).isEmpty();
      assertThat(store.count()).isEqualTo(15);
    }
    // every event once after the roll deleted the log files it had committed
    try (IndexStore reopened =
        new IndexStore("main", path, options, scheduler, Clock.systemUTC(), FSDirectory::open)) {
      assertThat(reopened.count()).isEqualTo(15);
    }
  }
}
