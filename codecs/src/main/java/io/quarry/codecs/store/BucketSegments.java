package io.quarry.codecs.store;

import io.quarry.codecs.journal.JournalStoredFieldsFormat;
import io.quarry.codecs.journal.JournalStoredFieldsReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.search.IndexSearcher;

/**
 * The segments a search of one bucket sees now, as their own files say: how many, their documents
 * (events, or blocks of events), and their journal by kind ({@link JournalKind}: codec, level, fast
 * or compact, format version) with its raw and compressed bytes.
 *
 * @param segments segments a search reads (0 before the first refresh)
 * @param documents their documents
 * @param journals their journals, one entry per kind, in the order met
 */
record BucketSegments(int segments, long documents, List<JournalKind> journals) {
  /** A bucket with no segments to read (empty, or its writer failed). */
  static final BucketSegments NONE = new BucketSegments(0, 0, List.of());

  BucketSegments {
    journals = List.copyOf(journals);
  }

  /** What the segments of {@code bucket}'s current searcher hold. */
  static BucketSegments of(Bucket bucket) throws IOException {
    int segments = 0;
    long documents = 0;
    List<JournalKind> journals = new ArrayList<>();
    IndexSearcher searcher = bucket.acquire();
    try {
      for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
        segments++;
        documents += leaf.reader().maxDoc();
        if (FilterLeafReader.unwrap(leaf.reader()) instanceof SegmentReader segment
            && segment.getFieldsReader() instanceof JournalStoredFieldsReader journal) {
          JournalKind.addTo(
              journals,
              new JournalKind(
                  journal.codec().name().toLowerCase(Locale.ROOT),
                  journal.level(),
                  JournalStoredFieldsFormat.isCompact(segment.getSegmentInfo().info),
                  journal.formatVersion(),
                  1,
                  journal.compressedBytes(),
                  journal.rawBytes()));
        }
      }
    } finally {
      bucket.release(searcher);
    }
    return new BucketSegments(segments, documents, journals);
  }

  /** The journals' bytes before compression. */
  long journalRawBytes() {
    return journals.stream().mapToLong(JournalKind::rawBytes).sum();
  }

  /** The journals' compressed bytes. */
  long journalBytes() {
    return journals.stream().mapToLong(JournalKind::bytes).sum();
  }
}
