package io.quarry.codecs.store;

/**
 * What {@code quarry indexes} shows of one bucket.
 *
 * @param minTime oldest event, epoch microseconds (0 when empty)
 * @param maxTime newest event, epoch microseconds (0 when empty)
 */
public record BucketInfo(
    long id, String state, long events, long minTime, long maxTime, long bytes) {}
