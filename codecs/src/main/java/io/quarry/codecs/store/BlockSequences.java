package io.quarry.codecs.store;

import java.io.IOException;
import java.util.BitSet;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;

/**
 * The sequence numbers a segment of block documents holds: each block's {@value
 * BlockDocuments#FIRST_SEQUENCE} and {@value BlockDocuments#COUNT} doc values give its range (a
 * block holds consecutive events of one batch). Recovery asks which logged events are present;
 * opening a hot bucket asks how many events it holds and the last sequence number.
 */
final class BlockSequences {
  private BlockSequences() {}

  /** {events, last sequence number (-1 when none)} over the live block documents of a segment. */
  static long[] countAndLast(LeafReader reader) throws IOException {
    long events = 0;
    long last = -1;
    NumericDocValues firsts = DocValues.getNumeric(reader, BlockDocuments.FIRST_SEQUENCE);
    NumericDocValues counts = DocValues.getNumeric(reader, BlockDocuments.COUNT);
    Bits live = reader.getLiveDocs();
    for (int doc = firsts.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = firsts.nextDoc()) {
      if ((live == null || live.get(doc)) && counts.advanceExact(doc)) {
        events += counts.longValue();
        last = Math.max(last, firsts.longValue() + counts.longValue() - 1);
      }
    }
    return new long[] {events, last};
  }

  /** The events of every live block document of a reader. */
  static long events(org.apache.lucene.index.IndexReader reader) throws IOException {
    long events = 0;
    for (org.apache.lucene.index.LeafReaderContext leaf : reader.leaves()) {
      events += countAndLast(leaf.reader())[0];
    }
    return events;
  }

  /** The events of the block documents {@code [from, to)} of a segment. */
  static long events(LeafReader reader, int from, int to) throws IOException {
    NumericDocValues counts = DocValues.getNumeric(reader, BlockDocuments.COUNT);
    long events = 0;
    for (int doc = counts.advance(from); doc < to; doc = counts.nextDoc()) {
      events += counts.longValue();
    }
    return events;
  }

  /**
   * Sets bit {@code s - low} of {@code into} for every sequence {@code s} in {@code [low, high]}.
   */
  static void collect(LeafReader reader, long low, long high, BitSet into) throws IOException {
    NumericDocValues firsts = DocValues.getNumeric(reader, BlockDocuments.FIRST_SEQUENCE);
    NumericDocValues counts = DocValues.getNumeric(reader, BlockDocuments.COUNT);
    Bits live = reader.getLiveDocs();
    for (int doc = firsts.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = firsts.nextDoc()) {
      if ((live == null || live.get(doc)) && counts.advanceExact(doc)) {
        long from = Math.max(low, firsts.longValue());
        long to = Math.min(high, firsts.longValue() + counts.longValue() - 1);
        if (from <= to) {
          into.set(Math.toIntExact(from - low), Math.toIntExact(to - low) + 1);
        }
      }
    }
  }
}
