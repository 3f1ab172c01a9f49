package io.quarry.codecs.store;

import java.util.List;

/**
 * What a scan touched: indexes, buckets opened and skipped by their time bounds, segments, events
 * read from storage (after the term index and time range narrowed them), and warnings (damaged
 * buckets that were quarantined, whose events the results miss).
 */
public record ScanStats(
    int indexes,
    int buckets,
    int bucketsSkipped,
    int segments,
    long eventsRead,
    List<String> warnings) {
  public ScanStats {
    warnings = List.copyOf(warnings);
  }
}
