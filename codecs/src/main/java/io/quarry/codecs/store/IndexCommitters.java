package io.quarry.codecs.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The committer threads of an {@link EventStore}, one per index ({@code quarry-committer-<index>}):
 * each runs its index's commits, rolls, retention, background refreshes and compaction checks. One
 * thread for every index had made an index's commit wait for the others' (16-18 s late with three
 * indexes ingesting under load): a slow commit now delays only its own index's. An add returns once
 * the log's fsync holds it: it waits for no bucket commit, roll or merge, only, when it appends
 * while its own index's commit rolls the write-ahead log, for that roll's fsync ({@link
 * IndexCommits}). With inline compaction ({@link CompactionSettings#INLINE}) a roll's forced merge
 * compacts on its index's committer, so the rolls of several indexes compact at the same time;
 * deferred compactions stay bounded by the node's {@link CompactionPermits}.
 */
final class IndexCommitters {
  private final List<ScheduledExecutorService> committers = new ArrayList<>();

  /**
   * A new thread for {@code index}'s periodic work (a daemon: it never holds up the JVM's exit).
   */
  ScheduledExecutorService start(String index) {
    ScheduledExecutorService committer =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "quarry-committer-" + index);
              thread.setDaemon(true);
              return thread;
            });
    committers.add(committer);
    return committer;
  }

  /** Stops every thread at once, interrupting the work that runs (an open that failed). */
  void stopNow() {
    committers.forEach(ScheduledExecutorService::shutdownNow);
  }

  /**
   * Stops scheduling periodic work and waits up to {@code seconds} in all for the work that runs:
   * not shutdownNow, since interrupting a background commit or refresh in the middle of its file
   * I/O makes Lucene's channel throw ClosedByInterruptException, which closes the IndexWriter as a
   * tragedy. Past the wait, what still runs is interrupted.
   */
  void stop(long seconds) {
    committers.forEach(ScheduledExecutorService::shutdown);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    try {
      for (ScheduledExecutorService committer : committers) {
        if (!committer.awaitTermination(
            Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
          committer.shutdownNow();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
