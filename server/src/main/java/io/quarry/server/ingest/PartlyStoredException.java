package io.quarry.server.ingest;

import java.io.IOException;
import java.util.List;

/**
 * A write of one request's events to several indexes failed after the batches of some indexes were
 * stored (durable and searchable): a failure that only the write itself finds — a full disk, an I/O
 * error, an index that turned busy after it was asked. The refusals a store decides before writing
 * (an index busy, a batch larger than a log record) are asked of every index before the request's
 * first batch is written, so nothing of it is stored then. The cause is the failure of the first
 * index, in the request's order, that was not stored.
 */
public final class PartlyStoredException extends IOException {
  private final List<String> storedIndexes;
  private final int storedEvents;
  private final String failedIndex;

  PartlyStoredException(
      List<String> storedIndexes, int storedEvents, String failedIndex, IOException cause) {
    super(
        "storing the events for index '"
            + failedIndex
            + "' failed ("
            + cause.getMessage()
            + ") after "
            + storedEvents
            + " events for "
            + storedIndexes
            + " were stored",
        cause);
    this.storedIndexes = List.copyOf(storedIndexes);
    this.storedEvents = storedEvents;
    this.failedIndex = failedIndex;
  }

  /** The indexes whose events of the request were all stored, in the order they were written. */
  public List<String> storedIndexes() {
    return storedIndexes;
  }

  /** How many of the request's events were stored (all of those for {@link #storedIndexes}). */
  public int storedEvents() {
    return storedEvents;
  }

  /**
   * The first index, in the request's order, whose batch is not stored: its append or its log's
   * fsync failed. Only {@link #storedIndexes} are acknowledged: every index's batch is appended
   * before any fsync is waited for, so an index after this one may be among them when this one's
   * fsync failed; the indexes after a failed append were not written.
   */
  public String failedIndex() {
    return failedIndex;
  }

  @Override
  public synchronized IOException getCause() {
    return (IOException) super.getCause();
  }
}
