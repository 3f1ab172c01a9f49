package io.quarry.ql.engine.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * review-d: a helper handed to a busy search pool (other searches' slices ahead of it in the queue)
 * runs only after {@link SharedTasks#run} has returned — the caller did every task. Until then the
 * queued runnable holds the {@code SharedTasks}, its task, and so everything the task captured: for
 * {@link AggregationOutput#pages} the answer's pages, result columns and sort order — memory no
 * account sees, kept after the search has answered.
 */
class SharedTasksRetentionTest {
  @Test
  void aHelperStillQueuedDoesNotKeepWhatTheTasksWroteReachable() throws InterruptedException {
    List<Runnable> queue = new ArrayList<>();
    Executor busy = queue::add; // a saturated pool: helpers wait behind other work
    WeakReference<long[]> written = shareOnBusyPool(busy);
    for (int i = 0; i < 20 && written.get() != null; i++) {
      System.gc();
      Thread.sleep(10);
    }
    assertThat(queue).as("helpers still queued after run returned").isNotEmpty();
    assertThat(written.get() == null)
        .as("what the tasks wrote is unreachable once run returned (helpers still queued)")
        .isTrue();
  }

  private static WeakReference<long[]> shareOnBusyPool(Executor busy) {
    long[][] pages = new long[4][];
    SharedTasks.run(4, task -> pages[task] = new long[1 << 20], busy, 3);
    for (long[] page : pages) {
      assertThat(page).isNotNull(); // the caller did every task
    }
    return new WeakReference<>(pages[0]);
  }
}
