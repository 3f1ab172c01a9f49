package io.quarry.codecs.metricstore;

/** Receives the selected series of a {@link MetricIndexStore#scan} and their points. */
public interface MetricScanVisitor {
  /** Receives one series' points, in time order within a bucket (or group), each instant once. */
  @FunctionalInterface
  interface Points {
    void point(long timeMicros, double value);

    /**
     * A chunk lying wholly inside the scan's range, offered before it is decoded: true when its
     * header — time bounds and point count — is all the receiver needs (a count), and the chunk is
     * then not decoded.
     */
    default boolean wholeChunk(long minTime, long maxTime, int count) {
      return false;
    }
  }

  /**
   * A selected series, once per bucket that holds it — or once per group of buckets overlapping in
   * time, read together (oldest first).
   *
   * @return where its points go, or null to skip the series' chunks
   */
  Points series(SeriesKey key);

  /** Asked between series: true ends the scan (time limit, cancellation). */
  default boolean stopped() {
    return false;
  }

  /**
   * A visitor for a run of a bucket's series read on another thread, to be {@link #join joined}
   * back; null (the default) when this visitor must see every series itself, in one thread. A fork
   * is used by one thread; it answers {@link #stopped} as this visitor does.
   */
  default MetricScanVisitor fork() {
    return null;
  }

  /**
   * Takes in what a {@link #fork} received. Forks are joined in the order of their series: each
   * fork's series come after everything this visitor received before (and after the forks joined
   * before it), so a visitor that joins as if it had received the fork's series itself answers as a
   * scan in one thread would.
   */
  default void join(MetricScanVisitor fork) {
    throw new UnsupportedOperationException("this visitor does not fork");
  }
}
