package io.quarry.codecs.block;

import java.io.IOException;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.store.RandomAccessInput;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BytesRef;

/**
 * One field's values in a {@link TermFilterFormat} file, read in place: {@link #filterMayContain}
 * probes the current document's {@link TermFilter} reading its header and the 32 bytes of one
 * filter block and nothing else; {@link #mayContain} asks the segment's {@link CommonTerms} first,
 * which the filters leave out; {@link #binaryValue} copies the filter (merges, {@code fsck}), which
 * alone may miss a common term.
 */
public final class TermFilterValues extends BinaryDocValues {
  private final RandomAccessInput input;
  private final long start;
  private final long endsStart;
  private final int maxDoc;
  private final long[] common;
  private final String file;
  private final BytesRef value = new BytesRef();
  private int doc = -1;
  private long valueStart;
  private long valueEnd;
  private long words = -1; // where the current filter's words begin, once read
  private int blocks;

  TermFilterValues(
      RandomAccessInput input, long start, long endsStart, int maxDoc, long[] common, String file) {
    this.input = input;
    this.start = start;
    this.endsStart = endsStart;
    this.maxDoc = maxDoc;
    this.common = common;
    this.file = file;
  }

  /** The segment's {@link CommonTerms}, sorted: not to be changed. */
  long[] common() {
    return common;
  }

  /**
   * Whether {@code hash} is one of the segment's {@link CommonTerms}: a "maybe" in every block,
   * which its filter need not hold.
   */
  public boolean isCommon(long hash) {
    return CommonTerms.contains(common, hash);
  }

  @Override
  public int docID() {
    return doc;
  }

  @Override
  public int nextDoc() throws IOException {
    return advance(doc + 1);
  }

  @Override
  public int advance(int target) throws IOException {
    for (int d = target; d < maxDoc; d++) {
      if (advanceExact(d)) {
        return d;
      }
    }
    doc = NO_MORE_DOCS;
    return doc;
  }

  @Override
  public boolean advanceExact(int target) throws IOException {
    doc = target;
    long end = input.readLong(endsStart + (long) Long.BYTES * target);
    if (end < 0) {
      return false;
    }
    long previous = target == 0 ? 0 : input.readLong(endsStart + (long) Long.BYTES * (target - 1));
    valueStart = start + (previous < 0 ? -1 - previous : previous);
    valueEnd = start + end;
    words = -1;
    return true;
  }

  @Override
  public long cost() {
    return maxDoc;
  }

  @Override
  public BytesRef binaryValue() throws IOException {
    int length = Math.toIntExact(valueEnd - valueStart);
    value.bytes = ArrayUtil.growNoCopy(value.bytes, length);
    input.readBytes(valueStart, value.bytes, 0, length);
    value.offset = 0;
    value.length = length;
    return value;
  }

  /**
   * Whether the current document's block may hold the entry whose hash is {@code hash}: a common
   * term, or one its filter may hold.
   *
   * @throws CorruptIndexException when the value is no filter of {@link TermFilter}'s grammar
   */
  public boolean mayContain(long hash) throws IOException {
    return isCommon(hash) || filterMayContain(hash);
  }

  /**
   * Whether the current document's filter may hold the entry whose hash is {@code hash}: {@link
   * TermFilter#mayContain} read in place (false for a {@link #isCommon common} term it leaves out).
   *
   * @throws CorruptIndexException when the value is no filter of {@link TermFilter}'s grammar
   */
  public boolean filterMayContain(long hash) throws IOException {
    if (words < 0) {
      readHeader();
    }
    long base = words + (long) TermFilter.block(hash, blocks) * 32;
    int key = (int) hash;
    for (int i = 0; i < 8; i++) {
      if ((input.readInt(base + 4 * i) & TermFilter.bit(key, i)) == 0) {
        return false;
      }
    }
    return true;
  }

  private void readHeader() throws IOException {
    long p = valueStart;
    if (valueEnd - p < 2 || input.readByte(p++) != TermFilter.VERSION) {
      throw new CorruptIndexException(
          "term filter of document " + doc + ": too short or of an unknown version", file);
    }
    int count = 0;
    for (int shift = 0; ; shift += 7) {
      if (p == valueEnd || shift > 28) {
        throw new CorruptIndexException(
            "term filter of document " + doc + ": bad block count", file);
      }
      byte b = input.readByte(p++);
      count |= (b & 0x7F) << shift;
      if (b >= 0) {
        break;
      }
    }
    if (count < 1 || (long) count * 32 != valueEnd - p) {
      throw new CorruptIndexException(
          "term filter of document "
              + doc
              + ": "
              + count
              + " blocks in "
              + (valueEnd - p)
              + " bytes",
          file);
    }
    blocks = count;
    words = p;
  }
}
