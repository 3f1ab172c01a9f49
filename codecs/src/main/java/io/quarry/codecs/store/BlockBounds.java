package io.quarry.codecs.store;

import java.io.IOException;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;

/**
 * The event count and time range of block documents of one segment, read in increasing doc-id order
 * from their {@value BlockDocuments#COUNT}, {@value BlockDocuments#OLDEST} and {@code _time} doc
 * values: whether a block lies wholly inside a scan's time range, so a {@link
 * EventVisitor.BlockShortcut} may take it whole.
 */
final class BlockBounds {
  private final NumericDocValues counts;
  private final NumericDocValues oldest;
  private final NumericDocValues newest;
  int events;
  long oldestTime;
  long newestTime;

  private BlockBounds(NumericDocValues counts, NumericDocValues oldest, NumericDocValues newest) {
    this.counts = counts;
    this.oldest = oldest;
    this.newest = newest;
  }

  /**
   * The bounds of a segment's blocks, or null when its blocks predate {@value
   * BlockDocuments#OLDEST}.
   */
  static BlockBounds open(LeafReader reader) throws IOException {
    NumericDocValues counts = reader.getNumericDocValues(BlockDocuments.COUNT);
    NumericDocValues oldest = reader.getNumericDocValues(BlockDocuments.OLDEST);
    NumericDocValues newest = reader.getNumericDocValues(EventFields.TIME);
    return counts == null || oldest == null || newest == null
        ? null
        : new BlockBounds(counts, oldest, newest);
  }

  /**
   * Reads block {@code doc}'s bounds; true when they are known and every event of the block lies in
   * {@code [earliest, latest)}.
   */
  boolean inside(int doc, long earliest, long latest) throws IOException {
    return read(doc) && oldestTime >= earliest && newestTime < latest;
  }

  /** Reads block {@code doc}'s bounds (doc ids in increasing order); false when unknown. */
  boolean read(int doc) throws IOException {
    if (!counts.advanceExact(doc) || !oldest.advanceExact(doc) || !newest.advanceExact(doc)) {
      return false;
    }
    events = (int) counts.longValue();
    oldestTime = oldest.longValue();
    newestTime = newest.longValue();
    return true;
  }
}
