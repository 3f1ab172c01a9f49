package io.quarry.codecs.metric;

/**
 * A point appended to a chunk before the chunk's last point. Chunks hold points in time order; the
 * caller (the ingest path) buffers a window of points per series and sorts it before appending.
 */
public final class OutOfOrderPointException extends IllegalArgumentException {
  private final long timestamp;
  private final long lastTimestamp;

  public OutOfOrderPointException(long timestamp, long lastTimestamp) {
    super(
        "out-of-order metric point: timestamp "
            + timestamp
            + " µs is before the chunk's last point at "
            + lastTimestamp
            + " µs; points must be appended in time order");
    this.timestamp = timestamp;
    this.lastTimestamp = lastTimestamp;
  }

  /** The refused point's time, epoch microseconds. */
  public long timestamp() {
    return timestamp;
  }

  /** The time of the chunk's last point, epoch microseconds. */
  public long lastTimestamp() {
    return lastTimestamp;
  }
}
