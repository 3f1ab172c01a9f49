package io.quarry.codecs.journal;

import java.io.IOException;
import java.util.zip.CRC32C;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.StoredFieldsReader;
import org.apache.lucene.codecs.StoredFieldsWriter;
import org.apache.lucene.codecs.compressing.MatchingReaders;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.MergeState;
import org.apache.lucene.index.SegmentInfo;
import org.apache.lucene.index.StoredFieldDataInput;
import org.apache.lucene.store.ByteArrayDataOutput;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;

/**
 * Writes the journal of one segment; see {@link JournalStoredFieldsFormat} for the format. A merge
 * copies the sources' compressed blocks that it would write the same way ({@link #merge}); a merge
 * whose sources are all compact writes compact blocks whatever it was opened for, so merging
 * compacted segments copies their blocks and keeps them compact.
 */
final class JournalStoredFieldsWriter extends StoredFieldsWriter {
  static final int TYPE_BITS = 3;
  static final int TYPE_MASK = (1 << TYPE_BITS) - 1;
  static final int STRING = 0;
  static final int BINARY = 1;
  static final int INT = 2;
  static final int LONG = 3;
  static final int FLOAT = 4;
  static final int DOUBLE = 5;

  private final JournalCompression compression;
  private final SegmentInfo segmentInfo;
  private JournalCodec codec; // a merge of compact segments only turns compact (merge)
  private int level;
  private boolean compact;
  private boolean started; // the data file names its codec and level: written at the first block
  private final int blockSize;
  private final String segment;
  private IndexOutput data;
  private IndexOutput index;

  private final ByteBuffersDataOutput document = ByteBuffersDataOutput.newResettableInstance();
  private final ByteBuffersDataOutput blockDocuments =
      ByteBuffersDataOutput.newResettableInstance();
  private final ByteBuffersDataOutput lengths = ByteBuffersDataOutput.newResettableInstance();
  private final JournalBlockIndex.Writer blockIndex = new JournalBlockIndex.Writer();
  private final CRC32C crc = new CRC32C();
  private int[] documentLengths = new int[64];
  private int documentsInBlock;
  private boolean asciiBlock = true; // every string of the block's documents so far is ASCII
  private int fieldsInDocument;
  private int numDocs;
  private byte[] raw = new byte[0];
  private byte[] compressed = new byte[0];

  JournalStoredFieldsWriter(
      Directory directory,
      SegmentInfo segmentInfo,
      IOContext context,
      JournalCompression compression,
      int blockSize,
      boolean compact)
      throws IOException {
    this.compression = compression;
    this.segmentInfo = segmentInfo;
    this.codec = compression.codec(compact);
    this.level = codec.level(compact);
    this.compact = compact;
    this.blockSize = blockSize;
    this.segment = segmentInfo.name;
    boolean success = false;
    try {
      data =
          directory.createOutput(
              IndexFileNames.segmentFileName(segment, "", JournalStoredFieldsFormat.DATA_EXTENSION),
              context);
      CodecUtil.writeIndexHeader(
          data,
          JournalStoredFieldsFormat.DATA_CODEC,
          JournalStoredFieldsFormat.VERSION_CURRENT,
          segmentInfo.getId(),
          "");
      index = JournalBlockIndex.create(directory, segmentInfo, context);
      success = true;
    } finally {
      if (!success) {
        IOUtils.closeWhileHandlingException(data, index);
      }
    }
  }

  @Override
  public void startDocument() {
    document.reset();
    fieldsInDocument = 0;
  }

  private void header(FieldInfo info, int type) throws IOException {
    fieldsInDocument++;
    document.writeVInt((info.number << TYPE_BITS) | type);
  }

  @Override
  public void writeField(FieldInfo info, int value) throws IOException {
    header(info, INT);
    document.writeZInt(value);
  }

  @Override
  public void writeField(FieldInfo info, long value) throws IOException {
    header(info, LONG);
    document.writeZLong(value);
  }

  @Override
  public void writeField(FieldInfo info, float value) throws IOException {
    header(info, FLOAT);
    document.writeInt(Float.floatToIntBits(value));
  }

  @Override
  public void writeField(FieldInfo info, double value) throws IOException {
    header(info, DOUBLE);
    document.writeLong(Double.doubleToLongBits(value));
  }

  @Override
  public void writeField(FieldInfo info, BytesRef value) throws IOException {
    header(info, BINARY);
    document.writeVInt(value.length);
    document.writeBytes(value.bytes, value.offset, value.length);
  }

  @Override
  public void writeField(FieldInfo info, StoredFieldDataInput value) throws IOException {
    header(info, BINARY);
    document.writeVInt(value.length());
    document.copyBytes(value.in(), value.length());
  }

  @Override
  public void writeField(FieldInfo info, String value) throws IOException {
    header(info, STRING);
    document.writeString(value);
    asciiBlock = asciiBlock && isAscii(value);
  }

  private static boolean isAscii(String value) {
    for (int i = 0; i < value.length(); i++) {
      if (value.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void finishDocument() throws IOException {
    long before = blockDocuments.size();
    blockDocuments.writeVInt(fieldsInDocument);
    document.copyTo(blockDocuments);
    documentLengths = ArrayUtil.grow(documentLengths, documentsInBlock + 1);
    documentLengths[documentsInBlock++] = Math.toIntExact(blockDocuments.size() - before);
    numDocs++;
    if (blockDocuments.size() >= blockSize
        || documentsInBlock >= JournalStoredFieldsFormat.MAX_DOCS_PER_BLOCK) {
      flushBlock();
    }
  }

  /** Writes the data file's codec and level, once, before its first block. */
  private void start() throws IOException {
    if (!started) {
      data.writeByte((byte) codec.id());
      data.writeByte((byte) level);
      started = true;
    }
  }

  private void flushBlock() throws IOException {
    start();
    // the documents' lengths, then the documents, copied once into the array that is compressed
    lengths.reset();
    for (int i = 0; i < documentsInBlock; i++) {
      lengths.writeVInt(documentLengths[i]);
    }
    int rawLength = Math.toIntExact(lengths.size() + blockDocuments.size());
    if (raw.length < rawLength) {
      raw = new byte[ArrayUtil.oversize(rawLength, 1)];
    }
    ByteArrayDataOutput rawOutput = new ByteArrayDataOutput(raw);
    lengths.copyTo(rawOutput);
    blockDocuments.copyTo(rawOutput);
    crc.reset();
    crc.update(raw, 0, rawLength);
    int bound = codec.maxCompressedLength(rawLength);
    if (compressed.length < bound) {
      compressed = new byte[ArrayUtil.oversize(bound, 1)];
    }
    int compressedLength = codec.compress(raw, rawLength, documentsInBlock, compressed, compact);
    long start = data.getFilePointer();
    data.writeBytes(compressed, 0, compressedLength);
    blockIndex.add(
        documentsInBlock, asciiBlock, start, compressedLength, rawLength, (int) crc.getValue());

    documentsInBlock = 0;
    asciiBlock = true;
    blockDocuments.reset();
    if (raw.length > 4 * blockSize && raw.length > 4 * rawLength) {
      // a huge document's buffers are not kept once a smaller block follows it; blocks that are
      // all larger than the block size (the block layout's documents of 2,048 events, ~550 KB)
      // keep theirs instead of allocating two such arrays per block
      raw = new byte[0];
      compressed = new byte[0];
    }
  }

  /**
   * Merges the sources' journals, copying the compressed blocks this writer would write the same
   * way and re-encoding the other documents (the conditions: {@link JournalBlockCopies}). Documents
   * keep the sources' order, skipping deleted ones, as Lucene's merge maps them when no index sort
   * applies; with one, Lucene's document-at-a-time merge runs.
   */
  @Override
  public int merge(MergeState mergeState) throws IOException {
    if (!compact && JournalBlockCopies.compactSources(mergeState, compression)) {
      // copied as they are below; with an index sort re-encoded compact once rather than fast now
      // and compact again at the next compaction
      compact = true;
      codec = compression.codec(true);
      level = codec.level(true);
      segmentInfo.putAttribute(JournalStoredFieldsFormat.COMPACT_ATTRIBUTE, "true");
    }
    if (mergeState.needsIndexSort || !JournalStoredFieldsFormat.blockCopy()) {
      return super.merge(mergeState);
    }
    MatchingReaders matching = new MatchingReaders(mergeState);
    int docCount = 0;
    for (int i = 0; i < mergeState.storedFieldsReaders.length; i++) {
      StoredFieldsReader source = mergeState.storedFieldsReaders[i];
      source.checkIntegrity();
      Bits liveDocs = mergeState.liveDocs[i];
      MergeVisitor visitor = new MergeVisitor(mergeState, i);
      JournalStoredFieldsReader journal =
          JournalBlockCopies.candidate(source, matching.matchingReaders[i], codec, level);
      if (journal != null) {
        for (int block = 0; block < journal.blockCount(); block++) {
          int first = journal.docBase(block);
          int count = journal.docCount(block);
          if (JournalBlockCopies.copyable(journal, block, liveDocs, blockSize)) {
            copyBlock(journal, block);
            docCount += count;
          } else {
            docCount += reencode(journal, first, first + count, liveDocs, visitor);
          }
        }
      } else {
        docCount += reencode(source, 0, mergeState.maxDocs[i], liveDocs, visitor);
      }
    }
    finish(docCount);
    return docCount;
  }

  /**
   * Appends a source block as it is, after the documents buffered so far (a block of their own).
   */
  private void copyBlock(JournalStoredFieldsReader source, int block) throws IOException {
    if (documentsInBlock > 0) {
      flushBlock();
    }
    start();
    long start = data.getFilePointer();
    source.copyCompressed(block, data);
    blockIndex.add(
        source.docCount(block),
        source.ascii(block),
        start,
        source.compressedLength(block),
        source.rawLength(block),
        source.checksum(block));
    numDocs += source.docCount(block);
  }

  /** Re-encodes the live documents of {@code [from, to)} of a source; returns how many. */
  private int reencode(
      StoredFieldsReader source, int from, int to, Bits liveDocs, MergeVisitor visitor)
      throws IOException {
    int written = 0;
    for (int doc = from; doc < to; doc++) {
      if (liveDocs == null || liveDocs.get(doc)) {
        startDocument();
        source.document(doc, visitor);
        finishDocument();
        written++;
      }
    }
    return written;
  }

  @Override
  public void finish(int expectedDocs) throws IOException {
    if (documentsInBlock > 0) {
      flushBlock();
    }
    if (expectedDocs != numDocs) {
      throw new IllegalStateException(
          "segment " + segment + ": wrote " + numDocs + " documents, expected " + expectedDocs);
    }
    start();
    CodecUtil.writeFooter(data);
    blockIndex.finish(index, numDocs);
  }

  @Override
  public void close() throws IOException {
    try {
      IOUtils.close(data, index);
    } finally {
      data = null;
      index = null;
    }
  }

  @Override
  public long ramBytesUsed() {
    return document.ramBytesUsed()
        + blockDocuments.ramBytesUsed()
        + blockIndex.ramBytesUsed()
        + raw.length
        + compressed.length
        + (long) documentLengths.length * Integer.BYTES;
  }
}
