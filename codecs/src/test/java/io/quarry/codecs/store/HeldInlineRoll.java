package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.util.IOUtils;

/**
 * Two indexes with compaction inline on a node of one {@link CompactionPermits compaction permit},
 * each on its own {@link StoreFixture} (its own scheduler, so that the first's maintenance can
 * stall in its roll while the test runs the second's). The first index holds a full bucket of six
 * segments, whose roll's forced merge is held at its first merge file until {@link
 * #finishFirstRoll}: while it is held, the first roll owns the node's only permit. The tests of
 * inline rolls against the permits share this setup; what the second index holds is each test's.
 */
final class HeldInlineRoll implements AutoCloseable {
  /** A bucket is full at 10,000 events; rolls merge under the commit lock. */
  static final IndexOptions INLINE =
      IndexOptions.builder().maxBucketEvents(10_000).compaction(CompactionSettings.INLINE).build();

  private final CountDownLatch entered = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private final ExecutorService rolling = Executors.newSingleThreadExecutor();
  private final StoreFixture firstStores;
  private final IndexStore first;
  private final IndexStore second;
  private Future<?> firstRoll;

  private HeldInlineRoll(StoreFixture firstStores, StoreFixture secondStores) throws Exception {
    this.firstStores = firstStores;
    CompactionPermits node = new CompactionPermits(1);
    IndexStore opened =
        firstStores.open(
            "first",
            INLINE,
            FaultyDirectories.holding(
                context -> context.context() == IOContext.Context.MERGE, entered, release),
            node);
    try {
      this.second = secondStores.open("second", INLINE, FSDirectory::open, node);
    } catch (Exception | Error failure) {
      IOUtils.closeWhileHandlingException(opened);
      rolling.shutdownNow();
      throw failure;
    }
    this.first = opened;
  }

  /**
   * Opens index {@code first} (filled with 12,000 events in six segments: its roll's forceMerge(4)
   * merges) and the empty index {@code second}, on one permit.
   */
  static HeldInlineRoll open(StoreFixture firstStores, StoreFixture secondStores) throws Exception {
    HeldInlineRoll roll = new HeldInlineRoll(firstStores, secondStores);
    try {
      StoreFixture.fill(roll.first, 0, 12_000);
    } catch (Exception | Error failure) {
      try {
        roll.close();
      } catch (Exception closing) {
        failure.addSuppressed(closing);
      }
      throw failure;
    }
    return roll;
  }

  IndexStore first() {
    return first;
  }

  IndexStore second() {
    return second;
  }

  /** Starts the first index's maintenance, which rolls its full bucket, and waits for the merge. */
  void holdFirstRoll() throws InterruptedException {
    firstRoll = rolling.submit(() -> firstStores.scheduler().maintenance(0));
    assertThat(entered.await(60, TimeUnit.SECONDS))
        .as("the first index's roll merges (held)")
        .isTrue();
  }

  /** Whether the first roll has ended (it has not while held). */
  boolean firstRollDone() {
    return firstRoll.isDone();
  }

  /** Lets the first roll's merge go on, waits for the roll, and checks that it rolled. */
  void finishFirstRoll() throws Exception {
    release.countDown();
    firstRoll.get(60, TimeUnit.SECONDS);
    assertThat(states(first)).containsExactly("warm", "hot");
  }

  /** The states of the store's buckets, oldest first. */
  static List<String> states(IndexStore store) throws Exception {
    return store.buckets().stream().map(BucketInfo::state).toList();
  }

  /** Lets a held roll go on (a test that failed while it was held) and closes both indexes. */
  @Override
  public void close() throws Exception {
    release.countDown();
    try {
      IOUtils.close(second, first);
    } finally {
      rolling.shutdownNow();
    }
  }
}
