package io.quarry.codecs.store;

/**
 * What a scan touched: indexes and segments opened, and events read from storage (after the term
 * index and time range narrowed them).
 */
public record ScanStats(int indexes, int segments, long eventsRead) {}
