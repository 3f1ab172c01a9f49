package io.quarry.codecs.store;

import java.io.IOException;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.store.ByteArrayDataInput;
import org.apache.lucene.util.BytesRef;

/**
 * A block document's {@code value → count} per field (issue 23): for {@code host}, {@code source},
 * {@code sourcetype} and every keyword index-time field {@code f} of a block in which
 * <em>every</em> event has a value of {@code f} (a non-empty one for the three default fields), two
 * doc-values fields:
 *
 * <ul>
 *   <li>{@value #VALUES}{@code f}: sorted-set doc values, each distinct value of the block's events
 *       once (as the event layout's doc values hold them: the block's column values);
 *   <li>{@value #COUNTS}{@code f}: binary doc values, the counts in the same (UTF-8 byte) order:
 * </ul>
 *
 * <pre>
 * counts  := version:byte(=1) count:vint{number of values}     count = events with that value
 * </pre>
 *
 * A block without them for {@code f} (some event lacks {@code f}, or it was written before the
 * counts existed) is read event by event; since session 33 a block some events of which lack {@code
 * f}, each other event having one value, has the sorted set but no counts (its events' codes are
 * {@link BlockValueCodes#PARTIAL}'s), so {@link #advanceExact} is false for it as before. Every
 * event of a counted block has at least one value, so when the counts add up to the block's event
 * count every event has exactly one: then "events whose value satisfies a condition" is the sum of
 * the counts of the values that do, and which value each event has is written beside them ({@link
 * BlockValueCodes}) when the block has several.
 *
 * <p>Written by {@link BlockValueTally}. Read per segment: {@link #open}, then {@link
 * #advanceExact} per block document in increasing doc-id order.
 */
public final class BlockValueCounts {
  static final String VALUES = "_bv.";
  static final String COUNTS = "_bc.";

  /** The grammar version of {@value #COUNTS} values. */
  static final byte VERSION = 1;

  private final SortedSetDocValues values;
  private final BinaryDocValues counts;
  private long[] ords = new long[16];
  private int[] countsOf = new int[16];
  private int size;
  private long total;
  private int doc = -1;
  private BytesRef countBytes; // the current block's counts, decoded when first asked for
  private int ordsRead; // of the current block's ordinals
  private boolean countsRead;

  private BlockValueCounts(SortedSetDocValues values, BinaryDocValues counts) {
    this.values = values;
    this.counts = counts;
  }

  /**
   * Whether some block bucket of {@code store} has value counts of {@code field} (a search over
   * blocks only counts from them where they exist; elsewhere it reads every event).
   */
  public static boolean anyIn(IndexStore store, String field) throws IOException {
    return anyBlockField(store, COUNTS + field); // not VALUES: blocks lacking it in some event
  }

  /**
   * Whether some block bucket of {@code store} has value codes of {@code field} ({@link
   * BlockValueCodes}).
   */
  public static boolean anyCodesIn(IndexStore store, String field) throws IOException {
    return anyBlockField(store, BlockValueCodes.CODES + field);
  }

  private static boolean anyBlockField(IndexStore store, String luceneField) throws IOException {
    for (Bucket bucket : store.bucketsOverlapping(Long.MIN_VALUE, Long.MAX_VALUE)) {
      if (bucket.format() != BucketFormat.BLOCKS) {
        continue;
      }
      org.apache.lucene.search.IndexSearcher searcher = bucket.acquire();
      try {
        for (org.apache.lucene.index.LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
          if (leaf.reader().getFieldInfos().fieldInfo(luceneField) != null) {
            return true;
          }
        }
      } finally {
        bucket.release(searcher);
      }
    }
    return false;
  }

  /** The counts of {@code field} in a segment of block documents, or null when none has them. */
  public static BlockValueCounts open(LeafReader reader, String field) throws IOException {
    SortedSetDocValues values = reader.getSortedSetDocValues(VALUES + field);
    BinaryDocValues counts = reader.getBinaryDocValues(COUNTS + field);
    return values == null || counts == null ? null : new BlockValueCounts(values, counts);
  }

  /**
   * The values of {@code field} in a segment of block documents, with their counts where a block
   * has them ({@link #advanceValues}), or null when no block has values of it: for the column's
   * reader, which also reads the blocks some events of which lack the field.
   */
  static BlockValueCounts openValues(LeafReader reader, String field) throws IOException {
    SortedSetDocValues values = reader.getSortedSetDocValues(VALUES + field);
    return values == null
        ? null
        : new BlockValueCounts(values, reader.getBinaryDocValues(COUNTS + field));
  }

  /** The segment's values of the field, by ordinal (for {@link SortedSetDocValues#lookupOrd}). */
  public SortedSetDocValues dictionary() {
    return values;
  }

  /** The number of distinct values in the segment. */
  public long valueCount() {
    return values.getValueCount();
  }

  /**
   * Moves to block document {@code doc} (increasing order); false when the block has no counts of
   * the field (some event lacks it, or the block predates the counts): then its events are read.
   * The block's ordinals and counts are decoded when first asked for ({@link #ord}, {@link #count},
   * {@link #total}), ordinals only as far as asked: a count by this field over a few of the block's
   * events reads the ordinals below the highest value they have and none of the counts.
   */
  public boolean advanceExact(int doc) throws IOException {
    return advanceValues(doc) && counted;
  }

  /**
   * Moves to block document {@code doc} (increasing order) for its values alone; false when it has
   * none of the field. The block has counts ({@link #counted}) unless some of its events lack the
   * field (its codes are then {@link BlockValueCodes#openPartial}'s), or it predates the counts, or
   * they are in a later grammar.
   */
  boolean advanceValues(int doc) throws IOException {
    if (!values.advanceExact(doc)) {
      return false;
    }
    counted = false;
    if (counts != null && counts.advanceExact(doc)) {
      BytesRef bytes = counts.binaryValue();
      // an unknown version byte: a later grammar this reader does not know, read the events
      counted = bytes.length > 0 && bytes.bytes[bytes.offset] == VERSION;
      countBytes = bytes;
    }
    this.doc = doc;
    size = values.docValueCount();
    if (ords.length < size) {
      ords = new long[size];
      countsOf = new int[size];
    }
    ordsRead = 0;
    countsRead = false;
    return true;
  }

  /** Whether the block {@link #advanceValues} moved to has counts of the field. */
  boolean counted() {
    return counted;
  }

  private boolean counted;

  /** The distinct values of the current block. */
  public int size() {
    return size;
  }

  /** The segment ordinal of the current block's {@code i}-th value. */
  public long ord(int i) throws IOException {
    while (ordsRead <= i) { // the block's ordinals come in order, one after the other
      ords[ordsRead++] = values.nextOrd();
    }
    return ords[i];
  }

  /**
   * The events of the current block with its {@code i}-th value.
   *
   * @throws CorruptIndexException when the counts do not match the values
   */
  public int count(int i) throws IOException {
    readCounts();
    return countsOf[i];
  }

  private void readCounts() throws IOException {
    if (countsRead) {
      return;
    }
    BytesRef bytes = countBytes;
    ByteArrayDataInput in = new ByteArrayDataInput(bytes.bytes, bytes.offset + 1, bytes.length - 1);
    total = 0;
    for (int i = 0; i < size; i++) {
      if (in.eof()) {
        throw new CorruptIndexException("block value counts end early", "doc " + doc);
      }
      countsOf[i] = in.readVInt();
      total += countsOf[i];
    }
    countsRead = true;
  }

  /**
   * The sum of the current block's counts: its event count when every event has exactly one value.
   *
   * @throws CorruptIndexException when the counts do not match the values
   */
  public long total() throws IOException {
    readCounts();
    return total;
  }
}
