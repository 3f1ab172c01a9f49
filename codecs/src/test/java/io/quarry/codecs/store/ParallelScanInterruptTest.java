package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A parallel scan whose waiting thread is interrupted (a server shutting down past its grace)
 * throws only once its running slices stopped — their visitors closed, nothing visited after — so
 * that what its caller gives back next (the search's memory, the buckets' searchers) is no longer
 * in use; before, it cancelled the slices and threw at once while they still ran, and a slice's
 * memory could be charged after its search's account was closed. The running slices stop at their
 * cursor's next advance; a slice that does not return is waited for a bounded time only. Real
 * segments on disk; each slice's visitor holds in its first event (ignoring interrupts, as a slice
 * busy reading would) until the test lets it go, so the race is decided by latches, not timing.
 */
class ParallelScanInterruptTest {
  private static final int EVENTS_PER_SEGMENT = 4;

  @TempDir Path dataDirectory;
  private EventStore store;
  private ExecutorService pool;

  @BeforeEach
  void twoSegments() throws IOException {
    store = EventStore.open(dataDirectory, List.of("main"));
    for (int segment = 0; segment < 2; segment++) { // two segments: two slices
      List<Event> events = new ArrayList<>();
      for (int i = 0; i < EVENTS_PER_SEGMENT; i++) {
        long time = segment * 1_000L + i;
        events.add(new Event(time, "event " + time, "h", "s", "t", Map.of()));
      }
      store.write("main", events);
      store.index("main").commit();
    }
    pool = Executors.newFixedThreadPool(2);
  }

  @AfterEach
  void close() throws IOException {
    pool.shutdownNow();
    store.close();
  }

  @Test
  void anInterruptedScanThrowsOnlyOnceItsRunningSlicesStopped() throws Exception {
    Holding slices = new Holding();
    Scanning scanning =
        new Scanning(
            slices.scanEnded,
            () ->
                Scans.pullEach(
                    store,
                    "main",
                    slices::visitor,
                    cursor -> {
                      while (cursor.advance(1)) {
                        // an event at a time, as a page source pulls
                      }
                    },
                    pool));
    assertThat(slices.bothRunning.await(10, TimeUnit.SECONDS)).isTrue();
    scanning.thread.interrupt();
    scanning.thread.join(500); // before the fix it threw here, the slices still holding
    slices.release.countDown();
    scanning.thread.join(10_000);

    assertThat(scanning.thread.isAlive()).isFalse();
    assertThat(scanning.error.get())
        .isInstanceOf(IOException.class)
        .hasMessage("search interrupted");
    assertThat(scanning.interruptSet).as("the interrupt set again").isTrue();
    assertThat(slices.closed.get()).as("visitors closed").isEqualTo(2);
    assertThat(slices.closedAfterTheScan).as("a visitor closed after the scan threw").isFalse();
    assertThat(slices.visitedAfterTheScan).as("an event visited after the scan threw").isFalse();
    assertThat(slices.visited.get())
        .as("each slice stopped at its next advance, its first event visited only")
        .isEqualTo(2);
  }

  @Test
  void aSliceThatDoesNotStopIsWaitedForABoundedTime() throws Exception {
    Holding slices = new Holding();
    Supplier<ScanSlice> readers = () -> ScanSlice.visiting(slices.visitor());
    Scanning scanning =
        new Scanning(
            slices.scanEnded,
            () ->
                ScanSources.with(
                    store::index,
                    List.of("main"),
                    Long.MIN_VALUE,
                    Long.MAX_VALUE,
                    sources ->
                        new ParallelScan(
                                sources, new MatchAllDocsQuery(), Long.MIN_VALUE, Long.MAX_VALUE)
                            .stopWait(Duration.ofMillis(300))
                            .run(readers, pool)));
    assertThat(slices.bothRunning.await(10, TimeUnit.SECONDS)).isTrue();
    long interrupted = System.nanoTime();
    scanning.thread.interrupt();
    scanning.thread.join(10_000);
    long waitedMillis = (System.nanoTime() - interrupted) / 1_000_000;
    slices.release.countDown(); // only now do the slices return
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (slices.closed.get() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(10); // they end before the store closes
    }

    assertThat(scanning.thread.isAlive()).isFalse();
    assertThat(waitedMillis).as("waited for the stuck slices, boundedly").isBetween(250L, 5_000L);
    assertThat(scanning.error.get())
        .isInstanceOf(IOException.class)
        .hasMessage("search interrupted; 2 of its slices still running after 300 ms");
    assertThat(scanning.interruptSet).isTrue();
  }

  /** The scan under test, on a thread of its own that the test interrupts. */
  private static final class Scanning {
    final AtomicReference<Throwable> error = new AtomicReference<>();
    final Thread thread;
    volatile boolean interruptSet;

    /** Runs {@code scan}, setting {@code ended} once it returned or threw. */
    Scanning(AtomicBoolean ended, ScanCall scan) {
      thread =
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      scan.run();
                    } catch (Throwable e) {
                      error.set(e);
                    } finally {
                      interruptSet = Thread.currentThread().isInterrupted();
                      ended.set(true);
                    }
                  });
    }
  }

  @FunctionalInterface
  private interface ScanCall {
    ScanStats run() throws IOException;
  }

  /**
   * Slices' visitors that each hold in their first event until {@link #release}, and note what
   * happens after the scan's thread ended.
   */
  private final class Holding {
    final CountDownLatch bothRunning = new CountDownLatch(2);
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicInteger visited = new AtomicInteger();
    final AtomicInteger closed = new AtomicInteger();
    final AtomicBoolean scanEnded = new AtomicBoolean();
    volatile boolean closedAfterTheScan;
    volatile boolean visitedAfterTheScan;

    EventVisitor visitor() {
      AtomicBoolean first = new AtomicBoolean(true);
      return new EventVisitor() {
        @Override
        public boolean visit(StoredEvent event) {
          visitedAfterTheScan |= ended();
          visited.incrementAndGet();
          if (first.getAndSet(false)) {
            bothRunning.countDown();
            awaitIgnoringInterrupts(release);
          }
          return true;
        }

        @Override
        public void close() {
          closedAfterTheScan |= ended();
          closed.incrementAndGet();
        }
      };
    }

    /** Whether the scan's thread ended: it returned or threw. */
    private boolean ended() {
      return scanEnded.get();
    }
  }

  /** Waits for {@code latch}, as a slice reading does not stop for an interrupt. */
  private static void awaitIgnoringInterrupts(CountDownLatch latch) {
    boolean interrupted = false;
    while (true) {
      try {
        latch.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
