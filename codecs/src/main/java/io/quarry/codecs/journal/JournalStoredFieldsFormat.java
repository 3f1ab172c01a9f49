package io.quarry.codecs.journal;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import org.apache.lucene.codecs.StoredFieldsFormat;
import org.apache.lucene.codecs.StoredFieldsReader;
import org.apache.lucene.codecs.StoredFieldsWriter;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.SegmentInfo;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.MergeInfo;

/**
 * The journal: stored fields in independently compressed, checksummed blocks.
 *
 * <p><b>Principle.</b> Documents are serialized one after another into a block buffer; when the
 * buffer reaches the block size (128 KiB by default) or holds {@link #MAX_DOCS_PER_BLOCK}
 * documents, the block is compressed with the segment's {@link JournalCompression} and appended to
 * the data file. A dense scan decodes each block once and walks its documents ({@link
 * JournalStoredFieldsReader#decodeBlock}); a point lookup binary-searches the block index for the
 * document's block and decodes only that block.
 *
 * <p><b>Fast and compact blocks.</b> Flushes and small merges write their blocks fast; a merge
 * expected to write at least {@link #DEFAULT_COMPACT_MERGE_BYTES} writes compact ones ({@link
 * JournalCodec#compress}: zstd level 9 instead of 1, lz4hc instead of lz4), since the segments it
 * makes are the ones that stay and are decoded by every search that reads events. With compaction
 * deferred ({@code forcedMergesCompact}, the store's default: {@code
 * io.quarry.codecs.store.CompactionSettings}) no natural merge is compact, whatever its size, and
 * every forced merge is: the bucket's compaction and its roll to warm. Each segment records which
 * kind its blocks are ({@link #COMPACT_ATTRIBUTE}), so a merge policy can tell the segments that
 * still wait for compaction ({@link #isCompact}). The setting ({@link JournalCompression}) names
 * the codec of each kind, possibly two different ones (by default since session 40 lz4 for fast
 * segments and zstd for compact ones: session 35 measured lz4 for fast segments, −6% of the writing
 * thread, and kept zstd 1 then because lz4 blocks had no prefix read, which {@link
 * Lz4PrefixDecoder} now gives them; see docs/design/block-index.md). A reader does not need to know
 * which: the data file names its codec.
 *
 * <p><b>Files.</b>
 *
 * <ul>
 *   <li>{@code .qjd}, data: {@code IndexHeader, CodecId (byte: {@link JournalCodec}: 0 none, 1 lz4,
 *       2 zstd), Level (byte, version 2 on: {@link JournalCodec#level}, the encoder level of every
 *       block), Block^blockCount, Footer}
 *   <li>{@code .qjx}, block index: {@code IndexHeader, BlockCount (vint), <DocCountAndAscii (vint:
 *       DocCount << 1 | 1 when every string value in the block is ASCII; version 0 wrote DocCount),
 *       StartPointer (vlong, delta to the previous block), CompressedLength (vint), RawLength
 *       (vint), Crc32c (int)>^BlockCount, NumDocs (vint), Footer}
 * </ul>
 *
 * A decompressed block is {@code DocLength (vint)^DocCount, Doc^DocCount}; a document is {@code
 * FieldCount (vint), <FieldNumberAndType (vint: number << 3 | type), Value>^FieldCount} with types
 * string (vint length + UTF-8), binary (vint length + bytes), int (zigzag vint), long (zigzag
 * vlong), float (4 bytes), double (8 bytes).
 *
 * <p><b>Integrity.</b> Headers carry the format name, version and segment id; footers carry a
 * checksum of the whole file (verified for the index on open, for the data by {@code
 * checkIntegrity}); each block carries a CRC32C of its decompressed bytes, verified the first time
 * an open segment decodes it; every later decode checks the CRC32C of the compressed bytes it read
 * against those that first decoded right, and the decoded bytes in full again when they differ
 * ({@code VerifiedBlocks}: the same damage found at a tenth of the bytes), so a flipped bit in a
 * block is reported on every read.
 *
 * <p><b>Merges copy blocks.</b> A merge writes a source segment's compressed block as it is —
 * bytes, document count, raw length, CRC32C and ASCII flag — when the source's codec and level are
 * those the merge writes (fast into fast, compact into compact; a compact merge of fast segments
 * recompresses them, as it is meant to), the source numbers its fields as the merged segment does,
 * no document of the block is deleted, no index sort reorders documents, and the block is at least
 * half full (a segment's last, short block is re-encoded with its neighbours, so short blocks do
 * not pile up over generations of merges). Other blocks' live documents are re-encoded; a copy
 * first flushes the documents re-encoded before it as a block of their own. Each source's data file
 * is checksummed whole before its blocks are read ({@code checkIntegrity}), since copied bytes are
 * not decoded; segments older than version 2 do not name their level and are re-encoded. See {@link
 * JournalBlockCopies} (the conditions) and {@link JournalStoredFieldsWriter#merge}.
 *
 * <p><b>Limitations.</b> A single document larger than the block size makes a block of its own.
 */
public final class JournalStoredFieldsFormat extends StoredFieldsFormat {
  static final String DATA_CODEC = "QuarryJournalData";
  static final String INDEX_CODEC = "QuarryJournalIndex";
  static final String DATA_EXTENSION = "qjd";
  static final String INDEX_EXTENSION = "qjx";
  static final int VERSION_START = 0;

  /** A block's entry says whether every string in it is ASCII (bit 0 of its document count). */
  static final int VERSION_ASCII_FLAG = 1;

  /**
   * The data file names its blocks' encoder level after the codec, so a merge knows which blocks it
   * may copy as they are.
   */
  static final int VERSION_LEVEL = 2;

  static final int VERSION_CURRENT = VERSION_LEVEL;

  public static final int DEFAULT_BLOCK_SIZE = 128 * 1024;
  static final int MAX_DOCS_PER_BLOCK = 4096;

  /**
   * A merge expected to write at least this many bytes writes compact blocks: below it, segments
   * are young and will be merged again soon (a flush writes tens of MiB), so their blocks are
   * written fast; the large merges make the segments that stay, which searches decode again and
   * again.
   */
  public static final long DEFAULT_COMPACT_MERGE_BYTES = 128L << 20;

  /**
   * The developer setting ({@code -Dquarry.storage.journalCompactMergeBytes=<bytes>}) that lowers
   * {@link #DEFAULT_COMPACT_MERGE_BYTES} for the server's indexes: a 1M-line benchmark index, whose
   * merges stay under 128 MiB, then holds compact blocks as a large one does.
   */
  public static final String COMPACT_MERGE_BYTES_PROPERTY =
      "quarry.storage.journalCompactMergeBytes";

  /** {@link #DEFAULT_COMPACT_MERGE_BYTES} unless {@link #COMPACT_MERGE_BYTES_PROPERTY} is set. */
  public static long compactMergeBytes() {
    return Long.getLong(COMPACT_MERGE_BYTES_PROPERTY, DEFAULT_COMPACT_MERGE_BYTES);
  }

  /**
   * The developer setting ({@code -Dquarry.storage.journalCompactLevel=<level>}) that sets zstd's
   * level for compact blocks (9 unless set): what the compact merges of a large ingest spend most
   * of their CPU on, for A/B runs of level against bytes (docs/design/block-index.md, "Ingest end
   * to end (session 32)"). The level is recorded in each data file, so segments of another level
   * are re-encoded, not copied, when merged.
   */
  public static final String COMPACT_LEVEL_PROPERTY = "quarry.storage.journalCompactLevel";

  /** {@code fallback} unless {@link #COMPACT_LEVEL_PROPERTY} is set, within {@code [min, max]}. */
  static int compactLevel(int fallback, int min, int max) {
    return compactLevel(System.getProperty(COMPACT_LEVEL_PROPERTY), fallback, min, max);
  }

  /** The level {@code setting} names ({@code fallback} when null), within {@code [min, max]}. */
  static int compactLevel(String setting, int fallback, int min, int max) {
    int level = setting == null ? fallback : Integer.parseInt(setting.strip());
    if (level < min || level > max) {
      throw new IllegalArgumentException(
          COMPACT_LEVEL_PROPERTY + " must be from " + min + " to " + max + ": " + level);
    }
    return level;
  }

  /**
   * The developer switch ({@code -Dquarry.storage.journalBlockCopy=false}) that makes merges
   * re-encode every document, as before session 29: for A/B measurements of the block copy.
   */
  public static final String BLOCK_COPY_PROPERTY = "quarry.storage.journalBlockCopy";

  /** Whether merges copy blocks: unless {@link #BLOCK_COPY_PROPERTY} is {@code false}. */
  static boolean blockCopy() {
    return !"false".equals(System.getProperty(BLOCK_COPY_PROPERTY));
  }

  /**
   * The segment attribute that says whether a segment's journal blocks are compact ({@code "true"})
   * or fast ({@code "false"}); segments written before session 33 do not have it.
   */
  public static final String COMPACT_ATTRIBUTE = "QuarryJournal.compact";

  /**
   * Whether {@code segment}'s journal blocks are compact: {@code true} for a segment written before
   * the attribute was (it is not known to wait for compaction, so it is not rewritten for it).
   */
  public static boolean isCompact(SegmentInfo segment) {
    return !"false".equals(segment.getAttribute(COMPACT_ATTRIBUTE));
  }

  private final JournalCompression compression;
  private final int blockSize;
  private final long compactMergeBytes;
  private final boolean forcedMergesCompact;

  public JournalStoredFieldsFormat(JournalCompression compression, int blockSize) {
    this(compression, blockSize, DEFAULT_COMPACT_MERGE_BYTES);
  }

  /**
   * @param compactMergeBytes merges of at least this many (estimated) bytes write compact blocks;
   *     {@code 0} makes every merge compact, {@code Long.MAX_VALUE} none
   */
  public JournalStoredFieldsFormat(
      JournalCompression compression, int blockSize, long compactMergeBytes) {
    this(compression, blockSize, compactMergeBytes, false);
  }

  /**
   * @param compactMergeBytes natural merges of at least this many (estimated) bytes write compact
   *     blocks; {@code 0} makes every merge compact, {@code Long.MAX_VALUE} none
   * @param forcedMergesCompact whether every forced merge ({@code IndexWriter.forceMerge}: a
   *     compaction, a roll) writes compact blocks, whatever its size
   */
  public JournalStoredFieldsFormat(
      JournalCompression compression,
      int blockSize,
      long compactMergeBytes,
      boolean forcedMergesCompact) {
    this.compression = requireNonNull(compression, "compression is null");
    if (blockSize < 1) {
      throw new IllegalArgumentException("blockSize must be positive: " + blockSize);
    }
    if (compactMergeBytes < 0) {
      throw new IllegalArgumentException(
          "compactMergeBytes must not be negative: " + compactMergeBytes);
    }
    this.blockSize = blockSize;
    this.compactMergeBytes = compactMergeBytes;
    this.forcedMergesCompact = forcedMergesCompact;
  }

  public JournalCompression compression() {
    return compression;
  }

  @Override
  public StoredFieldsReader fieldsReader(
      Directory directory, SegmentInfo segment, FieldInfos fieldInfos, IOContext context)
      throws IOException {
    return new JournalStoredFieldsReader(directory, segment, fieldInfos, context);
  }

  @Override
  public StoredFieldsWriter fieldsWriter(
      Directory directory, SegmentInfo segment, IOContext context) throws IOException {
    boolean compact = compact(context);
    segment.putAttribute(COMPACT_ATTRIBUTE, Boolean.toString(compact));
    return new JournalStoredFieldsWriter(
        directory, segment, context, compression, blockSize, compact);
  }

  /**
   * Whether a segment written in this context gets compact blocks: a large enough merge's, or a
   * forced merge's when {@code forcedMergesCompact}.
   */
  boolean compact(IOContext context) {
    MergeInfo merge = context.mergeInfo();
    if (context.context() != IOContext.Context.MERGE || merge == null) {
      return false;
    }
    boolean forced = merge.mergeMaxNumSegments() != UNBOUNDED_MAX_MERGE_SEGMENTS;
    return forced && forcedMergesCompact || merge.estimatedMergeBytes() >= compactMergeBytes;
  }

  /** {@code IndexWriter}'s value of a merge's maximum segment count when it is not forced. */
  private static final int UNBOUNDED_MAX_MERGE_SEGMENTS = -1;
}
