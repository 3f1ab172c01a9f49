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
 * filter block and nothing else; {@link #groupMayContain} probes a {@link TermFilterGroups group}'s
 * filter the same way; {@link #mayContain} asks the segment's {@link CommonTerms} first, which the
 * filters leave out, then the document's group and its own filter; {@link #binaryValue} copies the
 * filter (merges, {@code fsck}), which alone may miss a common term.
 */
public final class TermFilterValues extends BinaryDocValues {
  private final RandomAccessInput input;
  private final long start;
  private final long endsStart;
  private final int maxDoc;
  private final long[] common;
  private final TermFilterGroups groups;
  private final long groupFilters;
  private final String file;
  private final BytesRef value = new BytesRef();
  private int doc = -1;
  private long valueStart;
  private long valueEnd;
  private long words = -1; // where the current filter's words begin, once read
  private int blocks;

  TermFilterValues(
      RandomAccessInput input,
      long start,
      long endsStart,
      int maxDoc,
      long[] common,
      TermFilterGroups groups,
      long groupFilters,
      String file) {
    this.input = input;
    this.groups = groups;
    this.groupFilters = groupFilters;
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

  /** The groups of the segment's blocks, each with a filter probed first. */
  public TermFilterGroups groups() {
    return groups;
  }

  /**
   * Whether group {@code g}'s filter may hold the entry whose hash is {@code hash} (not as its
   * {@link TermFilter#groupHash}: this takes it), read in place: false only when none of the
   * group's blocks holds it (a common term aside).
   *
   * @throws CorruptIndexException when the group's filter is no filter of {@link TermFilter}'s
   *     grammar
   */
  public boolean groupMayContain(int g, long hash) throws IOException {
    long from = groupFilters + groups.filterStart(g);
    long to = groupFilters + groups.filterEnd(g);
    long words = words(from, to, "group " + g);
    return probe(words, (int) ((to - words) / 32), TermFilter.groupHash(hash));
  }

  /** A copy of group {@code g}'s filter (merges). */
  BytesRef groupFilter(int g) throws IOException {
    long from = groupFilters + groups.filterStart(g);
    byte[] bytes = new byte[Math.toIntExact(groups.filterEnd(g) - groups.filterStart(g))];
    input.readBytes(from, bytes, 0, bytes.length);
    return new BytesRef(bytes);
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
   * term, or one its group's filter (if it is in a group) and its own may hold.
   *
   * @throws CorruptIndexException when the value is no filter of {@link TermFilter}'s grammar
   */
  public boolean mayContain(long hash) throws IOException {
    if (isCommon(hash)) {
      return true;
    }
    int g = groups.of(doc);
    return (g < 0 || groupMayContain(g, hash)) && filterMayContain(hash);
  }

  /**
   * Whether the current document's filter may hold the entry whose hash is {@code hash}: {@link
   * TermFilter#mayContain} read in place (false for a {@link #isCommon common} term it leaves out).
   *
   * @throws CorruptIndexException when the value is no filter of {@link TermFilter}'s grammar
   */
  public boolean filterMayContain(long hash) throws IOException {
    if (words < 0) {
      words = words(valueStart, valueEnd, "document " + doc);
      blocks = (int) ((valueEnd - words) / 32);
    }
    return probe(words, blocks, hash);
  }

  /**
   * {@link TermFilter#mayContain} of the filter of {@code blocks} blocks whose words begin there.
   */
  private boolean probe(long words, int blocks, long hash) throws IOException {
    long base = words + (long) TermFilter.block(hash, blocks) * 32;
    int key = (int) hash;
    for (int i = 0; i < 8; i++) {
      if ((input.readInt(base + 4 * i) & TermFilter.bit(key, i)) == 0) {
        return false;
      }
    }
    return true;
  }

  /** Where the words of the filter in {@code [p, end)} begin, its header checked. */
  private long words(long p, long end, String whose) throws IOException {
    if (end - p < 2 || input.readByte(p++) != TermFilter.VERSION) {
      throw new CorruptIndexException(
          "term filter of " + whose + ": too short or of an unknown version", file);
    }
    int count = 0;
    for (int shift = 0; ; shift += 7) {
      if (p == end || shift > 28) {
        throw new CorruptIndexException("term filter of " + whose + ": bad block count", file);
      }
      byte b = input.readByte(p++);
      count |= (b & 0x7F) << shift;
      if (b >= 0) {
        break;
      }
    }
    if (count < 1 || (long) count * 32 != end - p) {
      throw new CorruptIndexException(
          "term filter of " + whose + ": " + count + " blocks in " + (end - p) + " bytes", file);
    }
    return p;
  }
}
