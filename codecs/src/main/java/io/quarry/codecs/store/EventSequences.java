package io.quarry.codecs.store;

import java.io.IOException;
import java.util.Arrays;
import java.util.BitSet;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.PointValues;

/**
 * The sequence numbers a segment of event documents holds, from each event's {@value
 * EventFields#SEQUENCE} point (the event layout's counterpart of {@link BlockSequences}): recovery
 * asks which logged events are present.
 */
final class EventSequences {
  private EventSequences() {}

  /** Sets, in {@code into}, bit {@code s - low} for every sequence number {@code s} in range. */
  static void collect(LeafReader reader, long low, long high, BitSet into) throws IOException {
    PointValues points = reader.getPointValues(EventFields.SEQUENCE);
    if (points == null) {
      return;
    }
    byte[] lower = new byte[Long.BYTES];
    byte[] upper = new byte[Long.BYTES];
    LongPoint.encodeDimension(low, lower, 0);
    LongPoint.encodeDimension(high, upper, 0);
    points.intersect(
        new PointValues.IntersectVisitor() {
          @Override
          public void visit(int docId) {
            throw new IllegalStateException("cells never match whole: values are needed");
          }

          @Override
          public void visit(int docId, byte[] packedValue) {
            long value = LongPoint.decodeDimension(packedValue, 0);
            if (value >= low && value <= high) {
              into.set(Math.toIntExact(value - low));
            }
          }

          @Override
          public PointValues.Relation compare(byte[] minPacked, byte[] maxPacked) {
            if (Arrays.compareUnsigned(minPacked, upper) > 0
                || Arrays.compareUnsigned(maxPacked, lower) < 0) {
              return PointValues.Relation.CELL_OUTSIDE_QUERY;
            }
            return PointValues.Relation.CELL_CROSSES_QUERY;
          }
        });
  }
}
