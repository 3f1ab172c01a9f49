package io.quarry.codecs.block;

/**
 * The event block's grammar, versions 1 and 2. Integers are Lucene's variable-length forms ({@code
 * VInt}, {@code VLong}, {@code ZLong}); strings are a {@code VInt} byte length and UTF-8 bytes.
 *
 * <pre>
 * Block       := Header(byte) Count(VInt) Newest(ZLong) ColumnCount(VInt)
 *                SectionEnd(VInt)^(2 + ColumnCount) Times Raw Column^ColumnCount CRC32C(int, BE)
 * Header      := Version + 64 × Texts                  Version (bits 0-5): 1 or 2
 *                Texts (bits 6-7): 0 unrecorded, 1 some text not ASCII, 2 every text ASCII
 * Times       := (Newest - Time)(VLong)^Count            newest first, so every delta is >= 0
 * Raw         := Length(VInt)^Count Bytes                the events' UTF-8 texts back to back
 * Column      := Name(string) Values                     version 1
 *              | Name(string) Here(byte=0) Values         version 2, the values in the block
 *              | Name(string) Elsewhere(byte=1)           version 2, the values outside the block
 * Values      := DictionarySize(VInt) Value(string)^DictionarySize
 *                (ValueCount(VInt) Code(VInt)^ValueCount)^Count
 * </pre>
 *
 * {@code SectionEnd} gives where each section ends, counted from the first byte after the section
 * table, so a reader finds any section without decoding the ones before it. Times are epoch
 * microseconds. A column holds one field: {@code host}, {@code source}, {@code sourcetype} (one
 * value per event) and the index-time fields (zero or more values per event, each a code into the
 * column's dictionary of distinct values in first-seen order). The checksum covers every byte
 * before it. A block holds at most {@link #MAX_EVENTS} events.
 *
 * <p>Version 2 (issue 23) lets a column's values live outside the block: an {@code Elsewhere}
 * column keeps only its name (and so its place among the columns, which is the order a reader lists
 * the fields in); whoever wrote the block holds the values somewhere the reader of a block knows
 * (the block bucket's per-block value counts and codes, {@code store.BlockValueCodes}). A writer
 * with no column elsewhere writes version 1, byte for byte the grammar before version 2 existed.
 *
 * <p>{@code Texts} (session 32, issue 21/23) records what the writer saw of the raw texts' bytes
 * while it copied them: {@link #ALL_ASCII} when every byte of the {@code Raw} section's texts is
 * below 0x80 (so a reader views each text as one character per byte without looking at a byte),
 * {@link #SOME_NOT_ASCII} when some text has a byte of 0x80 or above (so a reader checks texts one
 * by one, not the whole section first). Blocks written before have {@code Texts} 0, the header byte
 * being their version alone: they read exactly as before, and a reader checks their bytes as it
 * did. {@code Texts} 3 is refused. The checksum covers the header as every byte; a writer that
 * records a wrong answer is caught by {@code EventBlock.verify} ({@code quarry fsck}). A reader
 * older than the record (session 32) takes a recorded header for an unknown version and refuses the
 * block: no downgrade past it.
 *
 * <p>{@code Times} comes before {@code Raw} so that a reader may stop after it (session 33): {@link
 * EventBlockTimes} reads the times from a block's first bytes alone (the journal block decoded no
 * further, {@code journal.JournalPrefix}). Such a read cannot check the checksum, which comes last:
 * its caller checks the times against what it holds elsewhere (the block document's event count and
 * time range), and the texts are verified by the reads that decode them and by {@code verify}.
 */
public final class EventBlockFormat {
  /** The version of a block whose every column holds its values. */
  public static final byte VERSION = 1;

  /** The version of a block with some column's values held elsewhere. */
  public static final byte VERSION_ELSEWHERE = 2;

  /** The header's bits that hold the version. */
  static final int VERSION_BITS = 0x3F;

  /** The header's {@code Texts}: every text of the block is ASCII (each byte below 0x80). */
  static final int ALL_ASCII = 0x80;

  /** The header's {@code Texts}: some text of the block has a byte of 0x80 or above. */
  static final int SOME_NOT_ASCII = 0x40;

  /** Version 2's marker of a column whose values follow. */
  static final byte HERE = 0;

  /** Version 2's marker of a column whose values are held outside the block. */
  static final byte ELSEWHERE = 1;

  /** The most events one block holds. */
  public static final int MAX_EVENTS = 4096;

  /** The resource name in corruption messages. */
  static final String RESOURCE = "event block";

  private EventBlockFormat() {}
}
