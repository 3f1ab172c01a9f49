package io.quarry.codecs.block;

import java.io.IOException;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.store.RandomAccessInput;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BytesRef;

/**
 * One field's values in a {@link TermFilterFormat} file, read in place: {@link #mayContain} probes
 * the current document's {@link TermFilter} reading its header and the 32 bytes of one filter block
 * and nothing else; {@link #binaryValue} copies the whole value (merges, {@code fsck}).
 */
public final class TermFilterValues extends BinaryDocValues {
  private final RandomAccessInput file;
  private final long start;
  private final long endsStart;
  private final int maxDoc;
  private final BytesRef value = new BytesRef();
  private int doc = -1;
  private long valueStart;
  private long valueEnd;
  private long words = -1; // where the current filter's words begin, once read
  private int blocks;

  TermFilterValues(RandomAccessInput file, long start, long endsStart, int maxDoc) {
    this.file = file;
    this.start = start;
    this.endsStart = endsStart;
    this.maxDoc = maxDoc;
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
    long end = file.readLong(endsStart + (long) Long.BYTES * target);
    if (end < 0) {
      return false;
    }
    long previous = target == 0 ? 0 : file.readLong(endsStart + (long) Long.BYTES * (target - 1));
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
    file.readBytes(valueStart, value.bytes, 0, length);
    value.offset = 0;
    value.length = length;
    return value;
  }

  /**
   * Whether the current document's filter may hold the term whose {@link TermFilter#hash} is {@code
   * hash}: {@link TermFilter#mayContain} read in place.
   *
   * @throws CorruptBlockException when the value is no filter of {@link TermFilter}'s grammar
   */
  public boolean mayContain(long hash) throws IOException {
    if (words < 0) {
      readHeader();
    }
    long base = words + (long) TermFilter.block(hash, blocks) * 32;
    int key = (int) hash;
    for (int i = 0; i < 8; i++) {
      if ((file.readInt(base + 4 * i) & TermFilter.bit(key, i)) == 0) {
        return false;
      }
    }
    return true;
  }

  private void readHeader() throws IOException {
    long p = valueStart;
    if (valueEnd - p < 2 || file.readByte(p++) != TermFilter.VERSION) {
      throw new CorruptBlockException(
          "term filter of document " + doc + ": too short or of an unknown version");
    }
    int count = 0;
    for (int shift = 0; ; shift += 7) {
      if (p == valueEnd || shift > 28) {
        throw new CorruptBlockException("term filter of document " + doc + ": bad block count");
      }
      byte b = file.readByte(p++);
      count |= (b & 0x7F) << shift;
      if (b >= 0) {
        break;
      }
    }
    if (count < 1 || (long) count * 32 != valueEnd - p) {
      throw new CorruptBlockException(
          "term filter of document "
              + doc
              + ": "
              + count
              + " blocks in "
              + (valueEnd - p)
              + " bytes");
    }
    blocks = count;
    words = p;
  }
}
