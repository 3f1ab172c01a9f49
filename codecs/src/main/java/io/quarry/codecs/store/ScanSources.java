package io.quarry.codecs.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;

/** The buckets an {@link EventStore} scan reads: acquired for its body, released after it. */
final class ScanSources {
  private ScanSources() {}

  /** The scan body, over the acquired searchers of the buckets overlapping the range. */
  @FunctionalInterface
  interface ScanBody {
    ScanStats run(List<TimeOrderedScan.Source> sources) throws IOException;
  }

  /**
   * Runs {@code body} over the acquired searchers of the buckets of {@code indexNames} (each looked
   * up by {@code indexes}) that overlap {@code [earliestMicros, latestMicros)}, quarantining a
   * bucket found damaged (a warning of the result), and releases them.
   */
  static ScanStats with(
      Function<String, IndexStore> indexes,
      List<String> indexNames,
      long earliestMicros,
      long latestMicros,
      ScanBody body)
      throws IOException {
    List<TimeOrderedScan.Source> sources = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    int skipped = 0;
    try {
      for (String name : indexNames) {
        IndexStore store = indexes.apply(name);
        List<Bucket> overlapping = store.bucketsOverlapping(earliestMicros, latestMicros);
        skipped += store.bucketCount() - overlapping.size();
        for (Bucket bucket : overlapping) {
          try {
            sources.add(new TimeOrderedScan.Source(name, store, bucket, bucket.acquire()));
          } catch (CorruptIndexException
              | IndexFormatTooOldException
              | IndexFormatTooNewException e) {
            warnings.add(store.quarantine(bucket, e));
          }
        }
      }
      ScanStats stats = body.run(sources);
      warnings.addAll(stats.warnings());
      return new ScanStats(
          indexNames.size(),
          sources.size(),
          skipped,
          stats.segments(),
          stats.segmentsSkipped(),
          stats.eventsRead(),
          stats.costs(),
          warnings);
    } finally {
      for (TimeOrderedScan.Source source : sources) {
        try {
          source.bucket().release(source.searcher());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
  }
}
