package io.quarry.codecs.block;

import java.io.IOException;
import org.apache.lucene.codecs.DocValuesConsumer;
import org.apache.lucene.codecs.DocValuesFormat;
import org.apache.lucene.codecs.DocValuesProducer;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;

/**
 * The doc values format of a block bucket's term filters ({@value #FIELD}, bucket layout 3): binary
 * values laid out so that a probe reads the 32 bytes of one filter block where they lie ({@link
 * TermFilterValues#mayContain}) instead of copying the block's whole ~6 KB filter out, as Lucene's
 * own binary doc values hand a value out. One file per segment, {@value #EXTENSION}:
 *
 * <pre>
 * File      := IndexHeader(codec="QuarryTermFilters", version=0..2; 2 written) Field^Fields Directory
 *              DirectoryStart(long) Footer
 * Field     := Value^* Ends Common Groups
 * Ends      := End(long)^MaxDoc
 * Common    := Hash(long)^Commons           strictly ascending (signed)
 * Groups    := see {@link TermFilterGroups}  (Groups groups)
 * Directory := Fields(VInt) (Number(VInt) Start(long) EndsStart(long) Commons(VInt)
 *              Groups(VInt))^Fields
 * </pre>
 *
 * Numbers are little-endian. {@code End(d)} is the offset from the field's {@code Start} where
 * document {@code d}'s value ends when {@code d} has one, else {@code -1 - } that offset (the end
 * of the values before it); a value begins where the previous document's ends ({@code End(-1) = 0},
 * read as non-negative). {@code Common} follows the ends: the segment's {@link CommonTerms}, the
 * entry hashes its filters leave out, a "maybe" in every block. {@code IndexHeader} and {@code
 * Footer} are Lucene's ({@code CodecUtil}: magic, codec name, version, segment id and suffix; a
 * CRC32 of all bytes before it, checked by {@link DocValuesProducer#checkIntegrity}, so at merges
 * and by {@code CheckIndex}: it covers the lists too). {@code Groups} follow the common terms: runs
 * of consecutive documents with a filter of their own, probed before each block's ({@link
 * TermFilterGroups}; a block in a group has a thinner filter). Version 1 (session 29) has no {@code
 * Groups} and no {@code Groups} count in the directory; version 0 (session 28) neither, nor {@code
 * Common} and {@code Commons}. Both still read (no groups; no common terms), and a merge writes
 * version 2 (with no groups over an older input's documents, whose filters answer alone). A value
 * is a {@link TermFilter}'s bytes, but the format stores any binary value, so merges and {@code
 * fsck} read it like Lucene's; a value handed to the writer in the {@link TermFilterEntries} form
 * (the store's, at a flush) is written as the filter of its entries but the common ones. Only
 * binary fields; {@code journal.QuarryCodec} routes {@value #FIELD} here and every other field to
 * Lucene's format, and segments written before it (their {@value #FIELD} in Lucene's format,
 * recorded per field) read as before. A doc values update of {@value #FIELD} (which the store never
 * makes) would rewrite the field without its list.
 */
public final class TermFilterFormat extends DocValuesFormat {
  /** The format's SPI name, recorded per field in each segment. */
  public static final String NAME = "QuarryTermFilters10";

  /** The field of a block document holding its term filter. */
  public static final String FIELD = "_tf";

  /** The extension of the format's file. */
  public static final String EXTENSION = "qtf";

  static final String CODEC = "QuarryTermFilters";

  /** The first version: no common terms (session 28). */
  static final int VERSION_START = 0;

  /** Each field's {@link CommonTerms} after its ends (session 29). */
  static final int VERSION_COMMON = 1;

  /** Each field's {@link TermFilterGroups} after its common terms (session 31). */
  static final int VERSION_GROUPS = 2;

  /** The version written. */
  static final int VERSION = VERSION_GROUPS;

  private final int writes;

  /** The SPI constructor. */
  public TermFilterFormat() {
    this(VERSION);
  }

  /** A format writing {@code version} (tests: files as an older Quarry wrote them). */
  TermFilterFormat(int version) {
    super(NAME);
    this.writes = version;
  }

  @Override
  public DocValuesConsumer fieldsConsumer(SegmentWriteState state) throws IOException {
    return new TermFilterWriter(state, writes);
  }

  @Override
  public DocValuesProducer fieldsProducer(SegmentReadState state) throws IOException {
    return new TermFilterReader(state);
  }
}
