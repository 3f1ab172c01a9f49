package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a segment's shared candidate blocks ({@link LeafMatches}) cost the search, and when they are
 * not built: the bit set is charged once through the slice that builds it and given back exactly
 * once when the scan ends; a refused charge fails the scan with the charge's error and holds
 * nothing; a search that stopped (before the build, or while it iterates the scorer) builds nothing
 * more and its slices read no event. A real store of {@value #EVENTS} events, one block each (one
 * segment cut into slices of {@link ParallelScan#SLICE_BLOCKS} blocks).
 */
class LeafMatchesChargeTest {
  @TempDir Path data;
  private final ExecutorService pool = Executors.newFixedThreadPool(3);

  @AfterEach
  void stopPool() {
    pool.shutdownNow();
  }

  private static final long START = 1_700_000_000_000_000L;
  private static final int EVENTS = 3000; // more candidates than LeafMatches.CHECK_EVERY
  private static final Query EVERY_BLOCK =
      new TermQuery(new Term(EventFields.TOKENS, "everywhere"));

  /** What the scan charged and gave back, by held object (identity), and how it ended. */
  private static final class Account {
    final Map<Object, Long> charged = new IdentityHashMap<>();
    final Map<Object, Long> discharged = new IdentityHashMap<>();
    final AtomicInteger charges = new AtomicInteger();
    final AtomicInteger discharges = new AtomicInteger();
    final AtomicLong eventsVisited = new AtomicLong();
    final AtomicInteger stopAsks = new AtomicInteger();
    RuntimeException refusal; // thrown by every charge when set

    synchronized void charge(Object held, long bytes) {
      if (refusal != null) {
        throw refusal;
      }
      charges.incrementAndGet();
      charged.merge(held, bytes, Long::sum);
    }

    synchronized void discharge(Object held, long bytes) {
      discharges.incrementAndGet();
      discharged.merge(held, bytes, Long::sum);
    }
  }

  private EventStore store() throws Exception {
    IndexOptions blocks = IndexOptions.builder().format(BucketFormat.BLOCKS).blockEvents(1).build();
    EventStore store = EventStore.open(data, Map.of("bl", blocks));
    List<Event> batch = new ArrayList<>();
    for (int i = 0; i < EVENTS; i++) {
      batch.add(
          new Event(START + i * 1_000L, "line " + i + " everywhere", "h", "src", "st", Map.of()));
    }
    store.write("bl", batch);
    return store;
  }

  private ScanStats scan(EventStore store, Account account, BooleanSupplier stopped)
      throws Exception {
    return store.pullParallel(
        List.of("bl"),
        EVERY_BLOCK,
        Long.MIN_VALUE,
        Long.MAX_VALUE,
        () ->
            new ScanSlice() {
              @Override
              public EventVisitor visitor() {
                return event -> {
                  account.eventsVisited.incrementAndGet();
                  return true;
                };
              }

              @Override
              public void pull(SliceCursor cursor) throws java.io.IOException {
                while (cursor.advance(Integer.MAX_VALUE)) {
                  // every event of the slice
                }
              }

              @Override
              public void charge(Object held, long bytes) {
                account.charge(held, bytes);
              }

              @Override
              public void discharge(Object held, long bytes) {
                account.discharge(held, bytes);
              }

              @Override
              public boolean stopped() {
                account.stopAsks.incrementAndGet();
                return stopped.getAsBoolean();
              }
            },
        pool);
  }

  @Test
  void theBitSetIsChargedOnceAndGivenBackOnceWhenTheScanEnds() throws Exception {
    try (EventStore store = store()) {
      Account account = new Account();
      ScanStats stats = scan(store, account, () -> false);
      assertThat(account.eventsVisited.get()).isEqualTo(EVENTS);
      assertThat(stats.costs().sharedMatchSlices()).isGreaterThan(2); // the slices shared it
      assertThat(account.charges.get()).as("once per segment").isEqualTo(stats.segments());
      assertThat(account.discharges.get()).isEqualTo(account.charges.get());
      assertThat(account.discharged.keySet()).isEqualTo(account.charged.keySet());
      account.charged.forEach(
          (held, bytes) -> assertThat(account.discharged.get(held)).isEqualTo(bytes));
      // a bit a block, and the objects' headers
      assertThat(account.charged.values())
          .allSatisfy(bytes -> assertThat(bytes).isBetween((long) EVENTS / 8, EVENTS / 8 + 128L));
    }
  }

  @Test
  void aRefusedChargeFailsTheScanWithItsErrorAndHoldsNothing() throws Exception {
    try (EventStore store = store()) {
      Account account = new Account();
      account.refusal = new IllegalStateException("over the search's memory limit");
      assertThatThrownBy(() -> scan(store, account, () -> false)).isSameAs(account.refusal);
      assertThat(account.charges.get()).isZero();
      assertThat(account.discharges.get()).isZero();
    }
  }

  @Test
  void aSearchStoppedBeforeTheBuildReadsNothing() throws Exception {
    try (EventStore store = store()) {
      Account account = new Account();
      scan(store, account, () -> true);
      assertThat(account.eventsVisited.get()).isZero();
      assertThat(account.charges.get()).isZero();
    }
  }

  @Test
  void aSearchStoppingWhileTheBitSetIsBuiltEndsTheBuild() throws Exception {
    try (EventStore store = store()) {
      Account account = new Account();
      AtomicInteger asks = new AtomicInteger();
      // running at the first ask (before the scorer), stopped at the next (inside the build)
      scan(store, account, () -> asks.incrementAndGet() > 1);
      assertThat(account.eventsVisited.get()).as("no slice read the half-built set").isZero();
      assertThat(account.discharges.get()).isEqualTo(account.charges.get()).isEqualTo(1);
    }
  }
}
