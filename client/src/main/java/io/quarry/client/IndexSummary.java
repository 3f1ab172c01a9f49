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
 * @param compactionDue whether a compaction will start without more events (the server's idle and
 *     pending rules; false from a server that does not say)
 * @param compactions compaction merges finished since the server started
 * @param compactionWaitingSegments hot-bucket fast segments whose natural merges wait for the
 *     compaction while the index takes events (0 from a server that does not say)
 * @param segments the segments a search of the index reads now, over its buckets (0 from a server
 *     that does not say)
 * @param layouts the layouts of the buckets that hold segments, each once, sorted ({@code blocks
 *     3}; empty from a server that does not say)
 * @param journal the segments' journal by kind, summed over the buckets: the compression they
 *     actually hold (empty from a server that does not say)
 * @param bucketList every bucket, in the server's order
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
    boolean compactionDue,
    long compactions,
    int compactionWaitingSegments,
    int segments,
    java.util.List<String> layouts,
    java.util.List<JournalSummary> journal,
    java.util.List<BucketSummary> bucketList) {
  public IndexSummary {
    bytesByKind = java.util.Map.copyOf(bytesByKind);
    layouts = java.util.List.copyOf(layouts);
    journal = java.util.List.copyOf(journal);
    bucketList = java.util.List.copyOf(bucketList);
  }

  /**
   * Whether no compaction runs and none will without more events: the index's store is settled
   * (fast bytes under the server's idle minimum wait for more events or the bucket's roll).
   */
  public boolean compacted() {
    return !compacting && !compactionDue;
  }
}
