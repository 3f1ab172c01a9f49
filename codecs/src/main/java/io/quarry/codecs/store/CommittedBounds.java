package io.quarry.codecs.store;

import java.io.IOException;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PointValues;

/**
 * A hot bucket's time bounds, event count and last sequence number as its writer holds them (read
 * when the bucket opens again after a restart; {@link Bucket} keeps them up to date from then on).
 *
 * @param minTime the oldest event's time ({@link Long#MAX_VALUE} when empty)
 * @param maxTime the newest event's time ({@link Long#MIN_VALUE} when empty)
 * @param events the events, a block document counting its events
 * @param maxSequence the last sequence number (-1 when empty)
 */
record CommittedBounds(long minTime, long maxTime, long events, long maxSequence) {
  /** What {@code writer}'s segments hold, its documents laid out in {@code format}. */
  static CommittedBounds of(IndexWriter writer, BucketFormat format) throws IOException {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    long sequence = -1;
    long count = 0;
    try (DirectoryReader snapshot = DirectoryReader.open(writer)) {
      for (LeafReaderContext leaf : snapshot.leaves()) {
        PointValues times = leaf.reader().getPointValues(EventFields.TIME);
        if (times != null) {
          min = Math.min(min, LongPoint.decodeDimension(times.getMinPackedValue(), 0));
          max = Math.max(max, LongPoint.decodeDimension(times.getMaxPackedValue(), 0));
        }
        if (format == BucketFormat.BLOCKS) {
          long[] blocks = BlockSequences.countAndLast(leaf.reader());
          count += blocks[0];
          sequence = Math.max(sequence, blocks[1]);
          continue;
        }
        PointValues sequences = leaf.reader().getPointValues(EventFields.SEQUENCE);
        if (sequences != null) {
          sequence =
              Math.max(sequence, LongPoint.decodeDimension(sequences.getMaxPackedValue(), 0));
        }
        count += leaf.reader().numDocs();
      }
    }
    return new CommittedBounds(min, max, count, sequence);
  }
}
