package io.quarry.client;

/**
 * One index as {@code GET /api/v1/indexes} describes it.
 *
 * @param earliestMicros the oldest event, epoch microseconds, or null when empty
 * @param latestMicros the newest event, epoch microseconds, or null when empty
 * @param journalRawBytes the raw events' size as the journal holds them before compression
 * @param bytesByKind the searchable segments' bytes by what they hold ({@code journal}, {@code
 *     terms}, {@code postings}, {@code docValues}, {@code points}, {@code other}); empty from a
 *     server that does not say
 * @param compactionPendingBytes bytes of hot-bucket segments whose journal still waits for the
 *     deferred compaction (0 from a server that does not say)
 * @param compacting whether a compaction runs now
 * @param compactions compaction merges finished since the server started
 */
public record IndexSummary(
    String name,
    long events,
    int buckets,
    Long earliestMicros,
    Long latestMicros,
    long bytesOnDisk,
    long journalRawBytes,
    long journalBytes,
    long quarantinedBuckets,
    java.util.Map<String, Long> bytesByKind,
    long compactionPendingBytes,
    boolean compacting,
    long compactions) {
  public IndexSummary {
    bytesByKind = java.util.Map.copyOf(bytesByKind);
  }

  /** Whether nothing waits for compaction and none runs: the index's store is settled. */
  public boolean compacted() {
    return compactionPendingBytes == 0 && !compacting;
  }
}
