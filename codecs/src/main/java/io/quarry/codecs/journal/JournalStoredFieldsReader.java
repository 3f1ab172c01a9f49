package io.quarry.codecs.journal;

import java.io.IOException;
import java.util.zip.CRC32C;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.StoredFieldsReader;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.SegmentInfo;
import org.apache.lucene.index.StoredFieldVisitor;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.IOUtils;

/**
 * Reads the journal of one segment. Point lookups decode the document's block, keeping the last one
 * decoded, so documents read in order cost one decode per block. Dense scans call {@link
 * #decodeBlock} themselves with a {@link JournalBlock} of their own. Where each block lies, its
 * lengths and checksum come from the segment's block index ({@link JournalBlockIndex}, read once
 * and shared with clones). Not thread-safe: Lucene hands each thread its own {@link #clone()}.
 */
public final class JournalStoredFieldsReader extends StoredFieldsReader {
  private final FieldInfos fieldInfos;
  private final IndexInput data;
  private final JournalCodec codec;
  private final int level; // JournalCodec.level of the blocks, -1 before version 2 (not recorded)
  private final int version; // the data file's format version
  private final JournalBlockIndex blocks; // the .qjx file, shared with clones
  private final VerifiedBlocks verified; // shared with clones
  private final boolean compactSegment; // the segment says its blocks are compact
  private final boolean clone;

  private final JournalBlock cached = new JournalBlock();
  private final CRC32C crc = new CRC32C();
  private byte[] compressed = new byte[0];

  JournalStoredFieldsReader(
      Directory directory, SegmentInfo segment, FieldInfos fieldInfos, IOContext context)
      throws IOException {
    this.fieldInfos = fieldInfos;
    this.clone = false;
    this.blocks = JournalBlockIndex.read(directory, segment);
    this.verified = new VerifiedBlocks(blocks.blockCount());
    this.compactSegment = JournalStoredFieldsFormat.isCompact(segment);

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
    this.blocks = original.blocks;
    this.verified = original.verified;
    this.compactSegment = original.compactSegment;
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
    return blocks.blockCount();
  }

  /** The block holding a document. */
  public int blockOf(int docId) {
    return blocks.blockOf(docId);
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
    return blocks.compressedBytes();
  }

  /** Decompressed bytes of the journal. */
  public long rawBytes() {
    return blocks.rawBytes();
  }

  /** The segment doc id of a block's first document. */
  int docBase(int block) {
    return blocks.docBases[block];
  }

  int docCount(int block) {
    return blocks.docCount(block);
  }

  /** A block's decompressed length. */
  public int rawLength(int block) {
    return blocks.rawLengths[block];
  }

  /** A block's compressed length. */
  public int compressedLength(int block) {
    return blocks.compressedLengths[block];
  }

  /**
   * Where a block's compressed bytes start in the segment's journal data file ({@code .qjd}): for a
   * tool that maps the file and decodes it outside the reader (the benchmarks' {@code
   * JournalDecodePath}); reads go through {@link #decodeBlock}.
   */
  public long blockStart(int block) {
    return blocks.starts[block];
  }

  /** The CRC32C of a block's decompressed bytes. */
  int checksum(int block) {
    return blocks.checksums[block];
  }

  /** The blocks verified in this process, shared with clones ({@link VerifiedBlocks}). */
  VerifiedBlocks verifiedBlocks() {
    return verified;
  }

  boolean ascii(int block) {
    return blocks.asciiBlocks.get(block);
  }

  /**
   * Appends a block's compressed bytes, not decoded, to {@code out}: a merge's copy, for which the
   * data file was checksummed whole ({@link #checkIntegrity}) before.
   */
  void copyCompressed(int block, IndexOutput out) throws IOException {
    data.seek(blocks.starts[block]);
    out.copyBytes(data, blocks.compressedLengths[block]);
  }

  /**
   * Decodes one block into {@code into}, verifying it: the first time in this process its decoded
   * bytes against the index's CRC32C, later its compressed bytes against those that decoded right
   * ({@link VerifiedBlocks}; in full again when they differ).
   */
  public void decodeBlock(int block, JournalBlock into) throws IOException {
    long started = System.nanoTime();
    JournalBlockIndex blocks = this.blocks;
    int compressedLength = blocks.compressedLengths[block];
    int rawLength = blocks.rawLengths[block];
    if (compressed.length < compressedLength) {
      compressed = new byte[ArrayUtil.oversize(compressedLength, 1)];
    }
    data.seek(blocks.starts[block]);
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
      if ((int) crc.getValue() != blocks.checksums[block]) {
        throw new CorruptIndexException(
            "journal block "
                + block
                + " checksum mismatch: expected "
                + Integer.toHexString(blocks.checksums[block])
                + ", got "
                + Long.toHexString(crc.getValue()),
            data);
      }
      verified.verify(block, compressedChecksum);
    }
    into.index(
        block,
        blocks.docBases[block],
        blocks.docBases[block + 1] - blocks.docBases[block],
        rawLength,
        blocks.asciiBlocks.get(block));
    JournalReads.add(System.nanoTime() - started, rawLength);
  }

  /**
   * Starts decoding document {@code docId}'s block only as far as its first field's value is asked
   * for ({@link JournalPrefix#ensure}): no checksum is checked (see {@link JournalPrefix}).
   */
  public void readPrefix(int docId, JournalPrefix into) throws IOException {
    JournalBlockIndex blocks = this.blocks;
    int block = blocks.blockOf(docId);
    int compressedLength = blocks.compressedLengths[block];
    if (into.compressed.length < compressedLength) {
      into.compressed = new byte[ArrayUtil.oversize(compressedLength, 1)];
    }
    data.seek(blocks.starts[block]);
    data.readBytes(into.compressed, 0, compressedLength);
    into.start(
        codec,
        compressedLength,
        blocks.rawLengths[block],
        docId - blocks.docBases[block],
        blocks.docBases[block + 1] - blocks.docBases[block],
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
        + blocks.blockCount()
        + ")";
  }
}
