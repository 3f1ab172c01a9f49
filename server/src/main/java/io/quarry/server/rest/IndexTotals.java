package io.quarry.server.rest;

import io.quarry.codecs.store.BucketInfo;
import io.quarry.codecs.store.JournalKind;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * An event index's totals over its buckets, computed once for both APIs that list indexes: Quarry's
 * ({@code GET /api/v1/indexes}, {@link IndexRoutes}) and Splunk's ({@code data/indexes}, {@link
 * SplunkIndexRoutes}), so the two never disagree on an index's events, size or time range.
 *
 * @param buckets how many buckets
 * @param events events in all buckets
 * @param bytes bytes on disk of all buckets
 * @param journalRawBytes the stored events' bytes before compression
 * @param journalBytes the journal's compressed bytes
 * @param segments segments a search reads now
 * @param layouts the layouts of the buckets that hold segments, each once, sorted
 * @param journal the segments' journal by kind, summed over the buckets ({@link JournalKind#addTo})
 * @param earliestMicros the oldest event's time; meaningless when there are no events
 * @param latestMicros the newest event's time; meaningless when there are no events
 */
record IndexTotals(
    int buckets,
    long events,
    long bytes,
    long journalRawBytes,
    long journalBytes,
    int segments,
    List<String> layouts,
    List<JournalKind> journal,
    long earliestMicros,
    long latestMicros) {
  IndexTotals {
    layouts = List.copyOf(layouts);
    journal = List.copyOf(journal);
  }

  /** The totals of {@code buckets}. */
  static IndexTotals of(List<BucketInfo> buckets) {
    long events = 0;
    long bytes = 0;
    long raw = 0;
    long journalBytes = 0;
    int segments = 0;
    TreeSet<String> layouts = new TreeSet<>();
    List<JournalKind> journal = new ArrayList<>();
    long earliest = Long.MAX_VALUE;
    long latest = Long.MIN_VALUE;
    for (BucketInfo bucket : buckets) {
      events += bucket.events();
      bytes += bucket.bytes();
      raw += bucket.journalRawBytes();
      journalBytes += bucket.journalBytes();
      segments += bucket.segments();
      if (bucket.segments() > 0) {
        layouts.add(bucket.layout());
      }
      bucket.journals().forEach(kind -> JournalKind.addTo(journal, kind));
      if (bucket.events() > 0) {
        earliest = Math.min(earliest, bucket.minTime());
        latest = Math.max(latest, bucket.maxTime());
      }
    }
    return new IndexTotals(
        buckets.size(),
        events,
        bytes,
        raw,
        journalBytes,
        segments,
        List.copyOf(layouts),
        journal,
        earliest,
        latest);
  }

  /** The oldest event's time, or null without events. */
  Long earliest() {
    return events == 0 ? null : earliestMicros;
  }

  /** The newest event's time, or null without events. */
  Long latest() {
    return events == 0 ? null : latestMicros;
  }
}
