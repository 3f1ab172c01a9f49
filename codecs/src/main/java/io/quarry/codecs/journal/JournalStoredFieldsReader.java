package io.quarry.codecs.journal;

import java.io.IOException;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.StoredFieldsReader;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.SegmentInfo;
import org.apache.lucene.index.StoredFieldVisitor;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.FixedBitSet;
import org.apache.lucene.util.IOUtils;

/**
 * Reads the journal of one segment. Point lookups decode the document's block, keeping the last one
 * decoded, so documents read in order cost one decode per block. Dense scans call {@link
 * #decodeBlock} themselves with a {@link JournalBlock} of their own. Not thread-safe: Lucene hands
 * each thread its own {@link #clone()}.
 */
public final class JournalStoredFieldsReader extends StoredFieldsReader {
  private final FieldInfos fieldInfos;
  private final IndexInput data;
  private final JournalCodec codec;
  private final int level; // JournalCodec.level of the blocks, -1 before version 2 (not recorded)
  private final int version; // the data file's format version
  private final int[] docBases;
  private final long[] starts;
  private final int[] compressedLengths;
  private final int[] rawLengths;
  private final int[] checksums;
  private final FixedBitSet asciiBlocks; // blocks whose strings are all ASCII (version 1 on)
  private final VerifiedBlocks verified; // shared with clones
  private final boolean compactSegment; // the segment says its blocks are compact
  private final int numDocs;
  private final boolean clone;

  private final JournalBlock cached = new JournalBlock();
  private final CRC32C crc = new CRC32C();
  private byte[] compressed = new byte[0];

  JournalStoredFieldsReader(
      Directory directory, SegmentInfo segment, FieldInfos fieldInfos, IOContext context)
      throws IOException {
    this.fieldInfos = fieldInfos;
    this.clone = false;
    String indexName =
        IndexFileNames.segmentFileName(segment.name, "", JournalStoredFieldsFormat.INDEX_EXTENSION);
    int blocks = 0;
    int[] bases = new int[0];
    long[] blockStarts = new long[0];
    int[] compressedLength = new int[0];
    int[] rawLength = new int[0];
    int[] crcs = new int[0];
    FixedBitSet ascii = new FixedBitSet(0);
    int docs = 0;
    try (ChecksumIndexInput index = directory.openChecksumInput(indexName)) {
      Throwable failure = null;
      try {
        int version =
            CodecUtil.checkIndexHeader(
                index,
                JournalStoredFieldsFormat.INDEX_CODEC,
                JournalStoredFieldsFormat.VERSION_START,
                JournalStoredFieldsFormat.VERSION_CURRENT,
                segment.getId(),
                "");
        blocks = index.readVInt();
        bases = new int[blocks + 1];
        blockStarts = new long[blocks];
        compressedLength = new int[blocks];
        rawLength = new int[blocks];
        crcs = new int[blocks];
        ascii = new FixedBitSet(blocks);
        long start = -1;
        for (int i = 0; i < blocks; i++) {
          int docCount = index.readVInt();
          if (version >= JournalStoredFieldsFormat.VERSION_ASCII_FLAG) {
            if ((docCount & 1) != 0) {
              ascii.set(i);
            }
            docCount >>>= 1;
          }
          bases[i + 1] = bases[i] + docCount;
          start = i == 0 ? index.readVLong() : start + index.readVLong();
          blockStarts[i] = start;
          compressedLength[i] = index.readVInt();
          rawLength[i] = index.readVInt();
          crcs[i] = index.readInt();
        }
        docs = index.readVInt();
        if (docs != bases[blocks] || docs != segment.maxDoc()) {
          throw new CorruptIndexException(
              "journal holds "
                  + bases[blocks]
                  + " documents, index says "
                  + docs
                  + ", segment has "
                  + segment.maxDoc(),
              index);
        }
      } catch (Throwable t) {
        failure = t;
      } finally {
        CodecUtil.checkFooter(index, failure);
      }
    }
    this.docBases = bases;
    this.starts = blockStarts;
    this.compressedLengths = compressedLength;
    this.rawLengths = rawLength;
    this.checksums = crcs;
    this.asciiBlocks = ascii;
    this.verified = new VerifiedBlocks(blocks);
    this.compactSegment = JournalStoredFieldsFormat.isCompact(segment);
    this.numDocs = docs;

    String dataName =
        IndexFileNames.segmentFileName(segment.name, "", JournalStoredFieldsFormat.DATA_EXTENSION);
    IndexInput input = directory.openInput(dataName, context);
    boolean success = false;
    try {
      int version =
          CodecUtil.checkIndexHeader(
              input,
              JournalStoredFieldsFormat.DATA_CODEC,
              JournalStoredFieldsFormat.VERSION_START,
              JournalStoredFieldsFormat.VERSION_CURRENT,
              segment.getId(),
              "");
      this.version = version;
      this.codec = JournalCodec.byId(input.readByte());
      this.level =
          version >= JournalStoredFieldsFormat.VERSION_LEVEL
              ? Byte.toUnsignedInt(input.readByte())
              : -1;
      CodecUtil.retrieveChecksum(input);
      this.data = input;
      success = true;
    } finally {
      if (!success) {
        IOUtils.closeWhileHandlingException(input);
      }
    }
  }

  private JournalStoredFieldsReader(JournalStoredFieldsReader original) {
    this.fieldInfos = original.fieldInfos;
    this.data = original.data.clone();
    this.codec = original.codec;
    this.level = original.level;
    this.version = original.version;
    this.docBases = original.docBases;
    this.starts = original.starts;
    this.compressedLengths = original.compressedLengths;
    this.rawLengths = original.rawLengths;
    this.checksums = original.checksums;
    this.asciiBlocks = original.asciiBlocks;
    this.verified = original.verified;
    this.compactSegment = original.compactSegment;
    this.numDocs = original.numDocs;
    this.clone = true;
  }

  /** The codec this segment's journal was written with. */
  public JournalCodec codec() {
    return codec;
  }

  /**
   * The encoder level of this journal's blocks ({@link JournalCodec#level}), or -1 for a segment
   * written before the data file recorded it.
   */
  public int level() {
    return level;
  }

  /**
   * The format version of this journal's data file ({@code JournalStoredFieldsFormat}: 0 the first,
   * 1 blocks flagged ASCII, 2 the encoder level recorded): what {@code GET /api/v1/indexes} lists
   * of a segment, so an old segment still read as it was written can be told apart.
   */
  public int formatVersion() {
    return version;
  }

  /**
   * Whether the segment says its blocks are compact ({@link JournalStoredFieldsFormat#isCompact}),
   * whatever level they were written at: a merge of compact segments stays compact even when the
   * compact level changed since they were written.
   */
  boolean compactSegment() {
    return compactSegment;
  }

  public int blockCount() {
    return starts.length;
  }

  /** The block holding a document. */
  public int blockOf(int docId) {
    if (docId < 0 || docId >= numDocs) {
      throw new IndexOutOfBoundsException("doc " + docId + " of " + numDocs);
    }
    int found = Arrays.binarySearch(docBases, 0, starts.length, docId);
    if (found >= 0) {
      while (found + 1 < starts.length && docBases[found + 1] == docId) {
        found++; // skip empty blocks (none are written, but be exact)
      }
      return found;
    }
    return -found - 2;
  }

  /**
   * Whether document {@code docId} is the only document of its journal block: a prefix read of it
   * ({@link #readPrefix}) decodes only its own bytes, where one of a later document would decode
   * every document before it again.
   */
  public boolean soleDocument(int docId) {
    return docCount(blockOf(docId)) == 1;
  }

  /** Compressed bytes of the journal, for compression-ratio reporting. */
  public long compressedBytes() {
    long total = 0;
    for (int length : compressedLengths) {
      total += length;
    }
    return total;
  }

  /** Decompressed bytes of the journal. */
  public long rawBytes() {
    long total = 0;
    for (int length : rawLengths) {
      total += length;
    }
    return total;
  }

  /** The segment doc id of a block's first document. */
  int docBase(int block) {
    return docBases[block];
  }

  int docCount(int block) {
    return docBases[block + 1] - docBases[block];
  }

  /** A block's decompressed length. */
  public int rawLength(int block) {
    return rawLengths[block];
  }

  /** A block's compressed length. */
  public int compressedLength(int block) {
    return compressedLengths[block];
  }

  /**
   * Where a block's compressed bytes start in the segment's journal data file ({@code .qjd}): for a
   * tool that maps the file and decodes it outside the reader (the benchmarks' {@code
   * JournalDecodePath}); reads go through {@link #decodeBlock}.
   */
  public long blockStart(int block) {
    return starts[block];
  }

  /** The CRC32C of a block's decompressed bytes. */
  int checksum(int block) {
    return checksums[block];
  }

  /** The blocks verified in this process, shared with clones ({@link VerifiedBlocks}). */
  VerifiedBlocks verifiedBlocks() {
    return verified;
  }

  boolean ascii(int block) {
    return asciiBlocks.get(block);
  }

  /**
   * Appends a block's compressed bytes, not decoded, to {@code out}: a merge's copy, for which the
   * data file was checksummed whole ({@link #checkIntegrity}) before.
   */
  void copyCompressed(int block, IndexOutput out) throws IOException {
    data.seek(starts[block]);
    out.copyBytes(data, compressedLengths[block]);
  }

  /**
   * Decodes one block into {@code into}, verifying it: the first time in this process its decoded
   * bytes against the index's CRC32C, later its compressed bytes against those that decoded right
   * ({@link VerifiedBlocks}; in full again when they differ).
   */
  public void decodeBlock(int block, JournalBlock into) throws IOException {
    long started = System.nanoTime();
    int compressedLength = compressedLengths[block];
    int rawLength = rawLengths[block];
    if (compressed.length < compressedLength) {
      compressed = new byte[ArrayUtil.oversize(compressedLength, 1)];
    }
    data.seek(starts[block]);
    data.readBytes(compressed, 0, compressedLength);
    if (into.loans > 0 || into.bytes.length < rawLength) {
      into.bytes = new byte[ArrayUtil.oversize(rawLength, 1)];
      into.loans = 0;
    }
    into.block = -1;
    crc.reset();
    crc.update(compressed, 0, compressedLength);
    int compressedChecksum = (int) crc.getValue();
    try {
      codec.decompress(compressed, compressedLength, into.bytes, rawLength);
    } catch (IOException e) {
      throw new CorruptIndexException("journal block " + block + ": " + e.getMessage(), data, e);
    }
    if (!verified.verified(block, compressedChecksum)) {
      crc.reset();
      crc.update(into.bytes, 0, rawLength);
      if ((int) crc.getValue() != checksums[block]) {
        throw new CorruptIndexException(
            "journal block "
                + block
                + " checksum mismatch: expected "
                + Integer.toHexString(checksums[block])
                + ", got "
                + Long.toHexString(crc.getValue()),
            data);
      }
      verified.verify(block, compressedChecksum);
    }
    into.index(
        block,
        docBases[block],
        docBases[block + 1] - docBases[block],
        rawLength,
        asciiBlocks.get(block));
    JournalReads.add(System.nanoTime() - started, rawLength);
  }

  /**
   * Starts decoding document {@code docId}'s block only as far as its first field's value is asked
   * for ({@link JournalPrefix#ensure}): no checksum is checked (see {@link JournalPrefix}).
   */
  public void readPrefix(int docId, JournalPrefix into) throws IOException {
    int block = blockOf(docId);
    int compressedLength = compressedLengths[block];
    if (into.compressed.length < compressedLength) {
      into.compressed = new byte[ArrayUtil.oversize(compressedLength, 1)];
    }
    data.seek(starts[block]);
    data.readBytes(into.compressed, 0, compressedLength);
    into.start(
        codec,
        compressedLength,
        rawLengths[block],
        docId - docBases[block],
        docBases[block + 1] - docBases[block],
        "journal block " + block);
  }

  @Override
  public void document(int docId, StoredFieldVisitor visitor) throws IOException {
    int inCached = docId - cached.docBase();
    if (cached.block() >= 0 && inCached >= 0 && inCached < cached.docCount()) {
      cached.visit(inCached, visitor, fieldInfos); // a scan reads a block's documents in a row
      return;
    }
    int block = blockOf(docId);
    decodeBlock(block, cached);
    cached.visit(docId - cached.docBase(), visitor, fieldInfos);
  }

  @Override
  public JournalStoredFieldsReader clone() {
    return new JournalStoredFieldsReader(this);
  }

  @Override
  public void checkIntegrity() throws IOException {
    CodecUtil.checksumEntireFile(data);
  }

  @Override
  public void close() throws IOException {
    if (!clone) {
      data.close();
    }
  }

  @Override
  public String toString() {
    return "JournalStoredFieldsReader(codec="
        + codec
        + ", level="
        + level
        + ", blocks="
        + starts.length
        + ")";
  }
}
