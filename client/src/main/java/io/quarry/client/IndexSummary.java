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
    java.util.Map<String, Long> bytesByKind) {
  public IndexSummary {
    bytesByKind = java.util.Map.copyOf(bytesByKind);
  }
}
