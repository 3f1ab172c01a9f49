package io.quarry.codecs.metricstore;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;

/**
 * A bucket's selected series scanned in parallel: cut into contiguous runs (slices), each read by a
 * {@linkplain MetricScanVisitor#fork fork} of the visitor on the executor, then the forks
 * {@linkplain MetricScanVisitor#join joined} in series order — so the visitor ends as if it had
 * seen the series one after the other.
 *
 * <p>The calling thread reads the first slice, then every slice no pool thread has started yet: a
 * scan never waits for a pool that is busy (or is the pool the caller runs on), it only gets less
 * help.
 */
final class SeriesSlices {
  /** Fewer series than this per slice are not worth a thread (the forks' joins cost too). */
  static final int MIN_SERIES_PER_SLICE = 64;

  /** One slice's work: its visitor and its own counts (as {@link SnapshotScan}'s). */
  @FunctionalInterface
  interface Work {
    void scan(int from, int to, MetricScanVisitor visitor, long[] counts) throws IOException;
  }

  private SeriesSlices() {}

  /** How many slices {@code series} series make for {@code threads} threads (1: no slicing). */
  static int count(int series, int threads) {
    return Math.max(1, Math.min(threads, series / MIN_SERIES_PER_SLICE));
  }

  /**
   * Scans series {@code [0, series)} in {@code slices} contiguous slices; the visitor must {@link
   * MetricScanVisitor#fork fork}. On a failure the forks of the slices before the failing one, and
   * the failing one's (what it read before the failure), are joined — as a scan in one thread would
   * have left the visitor — and the failure is thrown.
   *
   * @return false, having read nothing, when the visitor does not fork
   */
  static boolean scan(
      Executor executor,
      int series,
      int slices,
      MetricScanVisitor visitor,
      long[] counts,
      Work work)
      throws IOException {
    List<MetricScanVisitor> forks = new ArrayList<>(slices);
    List<long[]> sliceCounts = new ArrayList<>(slices);
    List<FutureTask<Void>> tasks = new ArrayList<>(slices);
    for (int i = 0; i < slices; i++) {
      MetricScanVisitor fork = visitor.fork();
      if (fork == null) {
        return false;
      }
      long[] own = new long[counts.length];
      int from = (int) ((long) series * i / slices);
      int to = (int) ((long) series * (i + 1) / slices);
      forks.add(fork);
      sliceCounts.add(own);
      tasks.add(
          new FutureTask<>(
              () -> {
                work.scan(from, to, fork, own);
                return null;
              }));
    }
    for (int i = 1; i < slices; i++) {
      try {
        executor.execute(tasks.get(i));
      } catch (RejectedExecutionException shutDown) {
        // the caller reads it below
      }
    }
    for (FutureTask<Void> task : tasks) {
      task.run(); // nothing when a pool thread has started it
    }
    Throwable failure = null;
    int joined = 0;
    for (int i = 0; i < slices; i++) {
      boolean interrupted = false;
      while (true) {
        try {
          tasks.get(i).get();
          break;
        } catch (InterruptedException e) {
          interrupted = true; // the slice must end before the bucket is released
        } catch (ExecutionException e) {
          if (failure == null) {
            failure = e.getCause();
            joined = i + 1;
          }
          break;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    int join = failure == null ? slices : joined;
    for (int i = 0; i < join; i++) {
      visitor.join(forks.get(i));
      long[] own = sliceCounts.get(i);
      for (int c = 0; c < counts.length; c++) {
        counts[c] += own[c];
      }
    }
    switch (failure) {
      case null -> {}
      case IOException e -> throw e;
      case RuntimeException e -> throw e;
      case Error e -> throw e;
      default -> throw new IllegalStateException(failure);
    }
    return true;
  }
}
