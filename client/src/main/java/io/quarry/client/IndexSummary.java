package io.quarry.client;

/**
 * One index as {@code GET /api/v1/indexes} describes it.
 *
 * @param earliestMicros the oldest event, epoch microseconds, or null when empty
 * @param latestMicros the newest event, epoch microseconds, or null when empty
 * @param journalRawBytes the raw events' size as the journal holds them before compression
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
    long quarantinedBuckets) {}
