package io.quarry.codecs.store;

/**
 * Where an index's deferred compaction stands ({@link CompactionSettings}).
 *
 * @param pendingBytes bytes of hot-bucket segments whose journal blocks are still fast (0 when
 *     compaction is inline)
 * @param running whether a compaction merge is registered or running
 * @param compactions compaction merges finished since the index opened
 * @param compactedBytes the bytes those merges read
 */
public record CompactionStatus(
    long pendingBytes, boolean running, long compactions, long compactedBytes) {

  /** Whether nothing waits for compaction and none runs: the index's store is settled. */
  public boolean settled() {
    return pendingBytes == 0 && !running;
  }
}
