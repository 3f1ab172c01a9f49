package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A parallel scan tells a slice's reader, on the slice's thread once it ended, when no slice of the
 * scan is left to start ({@link ScanSlice#noSliceLeft}): only then (every slice made its reader
 * before), at least once, at most once per thread, and never before the slice's own events were all
 * read — what lets a fused scan hand a thread's key table on beside the other threads' last slices
 * (session 46).
 */
class ParallelScanNoSliceLeftTest {
  @TempDir Path data;
  private final ExecutorService pool = Executors.newFixedThreadPool(3);

  @AfterEach
  void stopPool() {
    pool.shutdownNow();
  }

  @Test
  void toldOncePerThreadAfterEverySliceStarted() throws Exception {
    // blocks of two events, 128 blocks a slice: 1,500 events are six slices
    Map<String, IndexOptions> options =
        Map.of("main", IndexOptions.builder().format(BucketFormat.BLOCKS).blockEvents(2).build());
    try (EventStore store = EventStore.open(data, options)) {
      List<Event> events = new ArrayList<>();
      for (int i = 0; i < 1_500; i++) {
        events.add(new Event(1_700_000_000_000_000L + i, "line " + i, "h", "/a", "st", Map.of()));
      }
      store.write("main", events);
    }
    try (EventStore store = EventStore.open(data, options)) {
      AtomicInteger made = new AtomicInteger(); // readers made: one per slice started
      AtomicLong read = new AtomicLong();
      ConcurrentLinkedQueue<int[]> told = new ConcurrentLinkedQueue<>(); // readers made, when told
      ConcurrentLinkedQueue<Thread> threads = new ConcurrentLinkedQueue<>();
      store.pullParallel(
          List.of("main"),
          new MatchAllDocsQuery(),
          Long.MIN_VALUE,
          Long.MAX_VALUE,
          () -> {
            made.incrementAndGet();
            AtomicLong sliceRead = new AtomicLong();
            return new ScanSlice() {
              @Override
              public EventVisitor visitor() {
                return new EventVisitor() {
                  @Override
                  public boolean visit(StoredEvent event) {
                    sliceRead.incrementAndGet();
                    return true;
                  }

                  @Override
                  public boolean keepsEvents() {
                    return false;
                  }
                };
              }

              @Override
              public void pull(SliceCursor cursor) throws IOException {
                while (cursor.advance(Integer.MAX_VALUE)) {
                  // the whole slice
                }
                read.addAndGet(sliceRead.get());
              }

              @Override
              public void noSliceLeft() {
                assertThat(sliceRead.get()).as("the slice was read first").isPositive();
                told.add(new int[] {made.get()});
                threads.add(Thread.currentThread());
              }
            };
          },
          pool);
      assertThat(read.get()).isEqualTo(1_500);
      assertThat(made.get()).as("slices").isGreaterThanOrEqualTo(4);
      assertThat(told).as("told at least once").isNotEmpty();
      assertThat(told).allSatisfy(at -> assertThat(at[0]).isEqualTo(made.get()));
      assertThat(threads).as("once per thread at most").doesNotHaveDuplicates();
    }
  }
}
