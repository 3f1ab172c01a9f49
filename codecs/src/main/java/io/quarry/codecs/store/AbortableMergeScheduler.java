package io.quarry.codecs.store;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.MergePolicy;

/**
 * A hot bucket's merge scheduler: Lucene's concurrent one, which also knows the thread of each
 * running merge, so that closing the bucket can stop them ({@link #abortRunning}) instead of
 * waiting for them — a deferred compaction's zstd-9 rewrite can take tens of seconds, and at close
 * every event it merges is already in the last commit (or in the write-ahead log).
 */
final class AbortableMergeScheduler extends ConcurrentMergeScheduler {
  private final Map<MergePolicy.OneMerge, Thread> running = new ConcurrentHashMap<>();

  @Override
  protected void doMerge(MergeSource source, MergePolicy.OneMerge merge) throws IOException {
    running.put(merge, Thread.currentThread());
    try {
      super.doMerge(source, merge);
    } catch (IOException | RuntimeException | Error e) {
      if (!merge.isAborted()) {
        throw e;
      }
      // stopped by abortRunning: the bucket is closing, its merge is not wanted
    } finally {
      running.remove(merge);
      Thread.interrupted(); // an abort's interrupt that came after the merge's last wait
    }
  }

  /**
   * Marks every running merge aborted and interrupts its thread, so a merge waiting on I/O stops
   * too; the writer's rollback then waits only for the merges to notice.
   */
  void abortRunning() {
    running.forEach(
        (merge, thread) -> {
          merge.setAborted();
          thread.interrupt();
        });
  }
}
