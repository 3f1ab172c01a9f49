package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link CrashWriter}'s retry of a batch refused as busy ({@link BusyRetry}), on a real index that
 * refuses adds (its one waiting bucket's compaction held, its hot bucket at twice its limit) and a
 * clock each sleep moves: a batch is tried every 50 ms for a minute, then the refusal is thrown,
 * nothing stored; a batch refused a few times is stored exactly once when the index takes events
 * again. No real minute passes.
 */
class BusyRetryTest {
  @RegisterExtension final StoreFixture stores = new StoreFixture();

  private final AtomicLong nanos = new AtomicLong(5_000_000_000L);
  private final List<Long> sleeps = new ArrayList<>();
  private final CountDownLatch entered = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);

  /** An index refusing adds: its full bucket's compaction ahead of the roll held, the hot full. */
  private IndexStore backlogged() throws Exception {
    IndexOptions options =
        IndexOptions.builder()
            .maxBucketEvents(100)
            .maxHotAge(Duration.ofHours(1))
            .format(BucketFormat.BLOCKS)
            .compaction(new CompactionSettings(true, Duration.ofDays(1), 1L << 40))
            .maxWaitingBuckets(1)
            .build();
    IndexStore store =
        stores.open(
            "main",
            options,
            FaultyDirectories.holdingCompactions("", entered, release),
            new CompactionPermits(1));
    StoreFixture.fill(store, 0, 100);
    stores.scheduler().maintenance(0); // full: its compaction ahead of the roll starts, held
    assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
    StoreFixture.fill(store, 100, 200); // the hot bucket at twice its limit, one bucket waiting
    stores.scheduler().maintenance(0);
    assertThatThrownBy(() -> store.add(NumberedEvents.events(300, 10)))
        .isInstanceOf(IndexBusyException.class);
    return store;
  }

  private BusyRetry retry(Runnable atSleep) {
    return new BusyRetry(
        nanos::get,
        millis -> {
          sleeps.add(millis);
          nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
          atSleep.run();
        });
  }

  @Test
  void aBatchRefusedAsBusyIsTriedEvery50msForAMinuteThenGivenUp() throws Exception {
    try (IndexStore store = backlogged()) {
      AtomicInteger tries = new AtomicInteger();
      try {
        assertThatThrownBy(
                () ->
                    retry(() -> {})
                        .write(
                            () -> {
                              tries.incrementAndGet();
                              store.add(NumberedEvents.events(300, 10));
                            }))
            .isInstanceOf(IndexBusyException.class);
      } finally {
        release.countDown();
      }
      assertThat(sleeps).hasSize(1200).containsOnly(BusyRetry.SLEEP_MILLIS);
      assertThat(tries).hasValue(1201); // the first, then one after each sleep
      assertThat(store.count()).as("a refused batch stores nothing").isEqualTo(300);
    }
  }

  @Test
  void aBatchRefusedAFewTimesIsStoredOnceWhenTheIndexTakesEventsAgain() throws Exception {
    try (IndexStore store = backlogged()) {
      AtomicInteger tries = new AtomicInteger();
      Runnable rollAtTheThirdSleep =
          () -> {
            if (sleeps.size() == 3) {
              release.countDown(); // the waiting bucket's compaction ends; a commit rolls it
              try {
                Timed.until(
                    60,
                    () -> {
                      stores.scheduler().maintenance(0);
                      return store.buckets().getFirst().state().equals("warm");
                    });
              } catch (Exception e) {
                throw new AssertionError(e);
              }
            }
          };
      try {
        retry(rollAtTheThirdSleep)
            .write(
                () -> {
                  tries.incrementAndGet();
                  store.add(NumberedEvents.events(300, 10));
                });
      } finally {
        release.countDown();
      }
      assertThat(tries).hasValue(4);
      assertThat(StoredRaws.of(store)).hasSize(310).allSatisfy((raw, n) -> assertThat(n).isOne());
    }
  }
}
