package io.quarry.codecs.journal;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.SegmentInfo;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.FixedBitSet;

/**
 * A segment's journal block index, the {@code .qjx} file ({@link JournalStoredFieldsFormat} gives
 * its grammar): per block its document count, whether its strings are all ASCII (version 1 on), its
 * start in the data file, its compressed and decompressed lengths and the CRC32C of its
 * decompressed bytes; then the segment's document count. This class owns that grammar both ways:
 * {@link #read} parses and checks a segment's file into the arrays a {@link
 * JournalStoredFieldsReader} and its clones share (immutable once read), and a {@link Writer}
 * collects the entry of every block a {@link JournalStoredFieldsWriter} writes or copies and writes
 * the file when the segment ends.
 */
final class JournalBlockIndex {
  final int[] docBases; // per block its first document, and one more: the segment's documents
  final long[] starts; // per block where its compressed bytes start in the data file
  final int[] compressedLengths;
  final int[] rawLengths;
  final int[] checksums; // CRC32C of each block's decompressed bytes
  final FixedBitSet asciiBlocks; // blocks whose strings are all ASCII (version 1 on)
  final int numDocs;

  private JournalBlockIndex(
      int[] docBases,
      long[] starts,
      int[] compressedLengths,
      int[] rawLengths,
      int[] checksums,
      FixedBitSet asciiBlocks,
      int numDocs) {
    this.docBases = docBases;
    this.starts = starts;
    this.compressedLengths = compressedLengths;
    this.rawLengths = rawLengths;
    this.checksums = checksums;
    this.asciiBlocks = asciiBlocks;
    this.numDocs = numDocs;
  }

  /**
   * Reads and checks {@code segment}'s block index: its header, its footer's checksum, and that it
   * counts the segment's documents.
   *
   * @throws CorruptIndexException when it is damaged or disagrees with the segment
   */
  static JournalBlockIndex read(Directory directory, SegmentInfo segment) throws IOException {
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
    return new JournalBlockIndex(
        bases, blockStarts, compressedLength, rawLength, crcs, ascii, docs);
  }

  /** The number of blocks. */
  int blockCount() {
    return starts.length;
  }

  /** The block holding a document. */
  int blockOf(int docId) {
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

  /** The number of documents of a block. */
  int docCount(int block) {
    return docBases[block + 1] - docBases[block];
  }

  /** The sum of the blocks' compressed lengths. */
  long compressedBytes() {
    long total = 0;
    for (int length : compressedLengths) {
      total += length;
    }
    return total;
  }

  /** The sum of the blocks' decompressed lengths. */
  long rawBytes() {
    long total = 0;
    for (int length : rawLengths) {
      total += length;
    }
    return total;
  }

  /**
   * Creates {@code segment}'s block index file and writes its header; its entries and footer follow
   * at the segment's end ({@link Writer#finish}).
   */
  static IndexOutput create(Directory directory, SegmentInfo segment, IOContext context)
      throws IOException {
    IndexOutput index =
        directory.createOutput(
            IndexFileNames.segmentFileName(
                segment.name, "", JournalStoredFieldsFormat.INDEX_EXTENSION),
            context);
    boolean success = false;
    try {
      CodecUtil.writeIndexHeader(
          index,
          JournalStoredFieldsFormat.INDEX_CODEC,
          JournalStoredFieldsFormat.VERSION_CURRENT,
          segment.getId(),
          "");
      success = true;
      return index;
    } finally {
      if (!success) {
        org.apache.lucene.util.IOUtils.closeWhileHandlingException(index);
      }
    }
  }

  /**
   * The write side: the entries of the blocks written so far, in memory until the segment ends (the
   * file starts with their count).
   */
  static final class Writer {
    private final ByteBuffersDataOutput entries = ByteBuffersDataOutput.newResettableInstance();
    private long previousStart; // the first block's start is written absolute (as a delta to 0)
    private int blocks;

    /** Adds the entry of a block written at {@code start} of the data file. */
    void add(
        int docCount, boolean ascii, long start, int compressedLength, int rawLength, int checksum)
        throws IOException {
      entries.writeVInt(docCount << 1 | (ascii ? 1 : 0));
      entries.writeVLong(start - previousStart);
      entries.writeVInt(compressedLength);
      entries.writeVInt(rawLength);
      entries.writeInt(checksum);
      previousStart = start;
      blocks++;
    }

    /** Writes the block count, every entry, the segment's document count and the footer. */
    void finish(IndexOutput index, int numDocs) throws IOException {
      index.writeVInt(blocks);
      entries.copyTo(index);
      index.writeVInt(numDocs);
      CodecUtil.writeFooter(index);
    }

    long ramBytesUsed() {
      return entries.ramBytesUsed();
    }
  }
}
