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
}
