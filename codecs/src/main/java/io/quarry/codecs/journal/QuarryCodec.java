package io.quarry.codecs.journal;

import io.quarry.codecs.block.TermFilterFormat;
import org.apache.lucene.codecs.DocValuesFormat;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.StoredFieldsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.codecs.perfield.PerFieldDocValuesFormat;

/**
 * Quarry's Lucene codec: Lucene 10.4's formats for postings, points and doc values, with the {@link
 * JournalStoredFieldsFormat journal} for stored fields and a block's term filters in a {@link
 * TermFilterFormat} file of their own (probed in place; each segment records per field which doc
 * values format wrote it, so filters written in Lucene's before session 28 read as they were).
 * Resolved by name ({@value #NAME}) through {@code META-INF/services}; the compression chosen here
 * applies to segments written with this instance, and each segment records its own, so the
 * no-argument instance SPI creates reads them all.
 */
public final class QuarryCodec extends FilterCodec {
  public static final String NAME = "Quarry100";

  private final JournalStoredFieldsFormat storedFields;
  private final DocValuesFormat termFilters = new TermFilterFormat();
  private final DocValuesFormat docValues =
      new PerFieldDocValuesFormat() {
        @Override
        public DocValuesFormat getDocValuesFormatForField(String field) {
          return TermFilterFormat.FIELD.equals(field)
              ? termFilters
              : ((Lucene104Codec) delegate).getDocValuesFormatForField(field);
        }
      };

  /** The SPI constructor: zstd for writing, any mode for reading. */
  public QuarryCodec() {
    this(JournalCompression.ZSTD, JournalStoredFieldsFormat.DEFAULT_BLOCK_SIZE);
  }

  /**
   * A codec whose merges of at least {@link JournalStoredFieldsFormat#compactMergeBytes()} bytes
   * write compact journal blocks.
   */
  public QuarryCodec(JournalCompression compression, int blockSize) {
    this(compression, blockSize, JournalStoredFieldsFormat.compactMergeBytes());
  }

  /** A codec whose merges of at least {@code compactMergeBytes} write compact journal blocks. */
  public QuarryCodec(JournalCompression compression, int blockSize, long compactMergeBytes) {
    this(compression, blockSize, compactMergeBytes, false);
  }

  /**
   * A codec whose natural merges of at least {@code compactMergeBytes} write compact journal
   * blocks, and every forced merge too when {@code forcedMergesCompact} (deferred compaction:
   * {@link JournalStoredFieldsFormat}, "Fast and compact blocks").
   */
  public QuarryCodec(
      JournalCompression compression,
      int blockSize,
      long compactMergeBytes,
      boolean forcedMergesCompact) {
    super(NAME, new Lucene104Codec());
    this.storedFields =
        new JournalStoredFieldsFormat(
            compression, blockSize, compactMergeBytes, forcedMergesCompact);
  }

  @Override
  public StoredFieldsFormat storedFieldsFormat() {
    return storedFields;
  }

  @Override
  public DocValuesFormat docValuesFormat() {
    return docValues;
  }
}
