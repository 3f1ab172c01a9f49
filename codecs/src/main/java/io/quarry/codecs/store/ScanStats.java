package io.quarry.codecs.store;

/**
 * What a scan touched: indexes, buckets opened and skipped by their time bounds, segments, and
 * events read from storage (after the term index and time range narrowed them).
 */
public record ScanStats(
    int indexes, int buckets, int bucketsSkipped, int segments, long eventsRead) {}
