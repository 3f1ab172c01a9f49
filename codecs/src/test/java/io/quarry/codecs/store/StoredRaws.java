package io.quarry.codecs.store;

import io.quarry.codecs.journal.JournalStoredFieldsFormat;
import io.quarry.codecs.journal.JournalStoredFieldsReader;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;

/** What an index's searches see: each stored {@code _raw} with its count, and its segments. */
final class StoredRaws {
  private StoredRaws() {}

  /** Every event a search of {@code store} finds now, by {@code _raw}, with how often. */
  static Map<String, Integer> of(IndexStore store) throws IOException {
    Map<String, Integer> found = new HashMap<>();
    for (Bucket bucket : store.bucketsOverlapping(Long.MIN_VALUE, Long.MAX_VALUE)) {
      IndexSearcher searcher = bucket.acquire();
      try {
        TimeOrderedCursor cursor =
            new TimeOrderedCursor(
                List.of(new TimeOrderedScan.Source(store.name(), store, bucket, searcher)),
                new MatchAllDocsQuery(),
                Long.MIN_VALUE,
                Long.MAX_VALUE,
                e -> {
                  found.merge(e.event().raw(), 1, Integer::sum);
                  return true;
                });
        while (cursor.advance(Integer.MAX_VALUE)) {
          // every event
        }
      } finally {
        bucket.release(searcher);
      }
    }
    return found;
  }

  /**
   * A fast segment of the default setting in {@link #segmentLevels}: lz4's fast encoder (level 0)
   * since session 40's {@code lz4-zstd} default; {@code "1 fast"} (zstd 1) before.
   */
  static final String FAST = "0 fast";

  /**
   * The journal level of each segment a search of {@code store} sees now, with whether the segment
   * says it is compact: {@code "12 compact"}, {@link #FAST}.
   */
  static List<String> segmentLevels(IndexStore store) throws IOException {
    List<String> levels = new java.util.ArrayList<>();
    for (Bucket bucket : store.bucketsOverlapping(Long.MIN_VALUE, Long.MAX_VALUE)) {
      IndexSearcher searcher = bucket.acquire();
      try {
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
          SegmentReader segment = (SegmentReader) FilterLeafReader.unwrap(leaf.reader());
          JournalStoredFieldsReader journal =
              (JournalStoredFieldsReader) ((CodecReader) segment).getFieldsReader();
          levels.add(
              journal.level()
                  + (JournalStoredFieldsFormat.isCompact(segment.getSegmentInfo().info)
                      ? " compact"
                      : " fast"));
        }
      } finally {
        bucket.release(searcher);
      }
    }
    return levels;
  }
}
