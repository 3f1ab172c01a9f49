package io.quarry.codecs.store;

import static io.quarry.codecs.store.NumberedEvents.events;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Natural merges of fast segments wait while the hot bucket takes events ({@link
 * CompactionMergePolicy}): two writer threads add every few milliseconds while the test commits
 * (each commit flushes a segment), so the bucket holds many more fast segments than Lucene's tiered
 * policy lets stand; searches meanwhile find every acknowledged event once; once the writers stop,
 * the idle compaction merges them all into compact ones. Without the deferral the tiered policy
 * merged the segments as they came (never more than about its {@code segmentsPerTier}).
 */
class DeferredNaturalMergesTest {
  @TempDir Path data;

  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
  private final ExecutorService writers = Executors.newFixedThreadPool(2);

  @AfterEach
  void stop() {
    writers.shutdownNow();
    scheduler.shutdownNow();
  }

  private static final int BATCH = 20;

  /** What one run of writers and commits saw. */
  private record Seen(int maxFastSegments, int maxWaiting, int events) {}

  /**
   * Two writers add batches of {@link #BATCH} every few milliseconds (writer {@code w} numbers its
   * events from {@code w * 10,000,000}) while this thread commits {@code commits} times, every
   * tenth time checking that a search finds every event acknowledged before it exactly once; then
   * the writers stop.
   */
  private Seen writeWhileCommitting(IndexStore store, int commits) throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    AtomicIntegerArray batches = new AtomicIntegerArray(2); // acknowledged, per writer
    Future<?>[] running = new Future<?>[2];
    for (int w = 0; w < 2; w++) {
      int writer = w;
      running[w] =
          writers.submit(
              () -> {
                while (!stop.get()) {
                  int batch = batches.get(writer);
                  store.add(events(writer * 10_000_000 + batch * BATCH, BATCH));
                  batches.incrementAndGet(writer);
                  Thread.sleep(2); // far under the idle time: the bucket never idles
                }
                return null;
              });
    }
    int maxFast = 0;
    int maxWaiting = 0;
    try {
      for (int commit = 1; commit <= commits; commit++) {
        Thread.sleep(15);
        store.commit();
        maxWaiting = Math.max(maxWaiting, store.compaction().waitingSegments());
        if (commit % 10 == 0) {
          int[] acknowledged = {batches.get(0), batches.get(1)};
          Map<String, Integer> found = StoredRaws.of(store);
          assertThat(found.values()).allMatch(count -> count == 1);
          for (int w = 0; w < 2; w++) {
            for (int i = 0; i < acknowledged[w] * BATCH; i += 97) {
              assertThat(found).containsKey("event " + (w * 10_000_000 + i));
            }
          }
          int fast =
              (int)
                  StoredRaws.segmentLevels(store).stream().filter(l -> l.endsWith("fast")).count();
          maxFast = Math.max(maxFast, fast);
          assertThat(StoredRaws.segmentLevels(store))
              .as("no compaction while the events arrive")
              .allMatch(level -> level.equals(StoredRaws.FAST));
        }
      }
    } finally {
      stop.set(true);
      for (Future<?> writer : running) {
        writer.get(30, TimeUnit.SECONDS);
      }
    }
    store.commit();
    return new Seen(maxFast, maxWaiting, (batches.get(0) + batches.get(1)) * BATCH);
  }

  private IndexStore open(BucketFormat format) throws Exception {
    // idle after 1 s without an event; any fast byte is worth an idle compaction; no size bound
    CompactionSettings compaction = new CompactionSettings(true, Duration.ofSeconds(1), 1L << 40);
    return DeferredCompactionTest.open(data, scheduler, format, compaction, FSDirectory::open);
  }

  private static void awaitSettled(IndexStore store) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!store.compaction().settled() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(store.compaction().settled()).as("%s", store.compaction()).isTrue();
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void fastSegmentsWaitForTheCompactionWhileEventsArrive(BucketFormat format) throws Exception {
    int tier = (int) new TieredMergePolicy().getSegmentsPerTier();
    try (IndexStore store = open(format)) {
      Seen seen = writeWhileCommitting(store, 40);

      assertThat(seen.maxFastSegments())
          .as("fast segments left unmerged while the events arrived (tiered keeps ~%d)", tier)
          .isGreaterThan(2 * tier);
      assertThat(seen.maxWaiting())
          .as("fast segments reported waiting")
          .isGreaterThan(2 * tier)
          .isLessThanOrEqualTo(CompactionMergePolicy.MAX_DEFERRED_FAST_SEGMENTS);

      awaitSettled(store); // idle: the compaction takes every fast segment
      Map<String, Integer> found = StoredRaws.of(store);
      assertThat(found).hasSize(seen.events());
      assertThat(found.values()).allMatch(count -> count == 1);
      assertThat(StoredRaws.segmentLevels(store))
          .isNotEmpty()
          .hasSizeLessThanOrEqualTo(CompactionMergePolicy.ROLL_SEGMENTS)
          .allMatch(level -> level.equals("12 compact"));
      assertThat(store.compaction().compactions()).isPositive();
      assertThat(store.compaction().waitingSegments()).isZero();
    }
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void pastTheBoundTheNaturalMergesRunAgain(BucketFormat format) throws Exception {
    int bound = CompactionMergePolicy.MAX_DEFERRED_FAST_SEGMENTS;
    try (IndexStore store = open(format)) {
      Seen seen = writeWhileCommitting(store, bound + 30);

      // a merge runs beside the flushes: a few segments over the bound until it ends
      assertThat(seen.maxFastSegments()).isLessThanOrEqualTo(bound + 15);
      awaitSettled(store);
      Map<String, Integer> found = StoredRaws.of(store);
      assertThat(found).hasSize(seen.events());
      assertThat(found.values()).allMatch(count -> count == 1);
      assertThat(StoredRaws.segmentLevels(store)).allMatch(level -> level.equals("12 compact"));
    }
  }
}
