package io.quarry.codecs.block;

/**
 * The event block's grammar, version 1. Integers are Lucene's variable-length forms ({@code VInt},
 * {@code VLong}, {@code ZLong}); strings are a {@code VInt} byte length and UTF-8 bytes.
 *
 * <pre>
 * Block       := Version(byte) Count(VInt) Newest(ZLong) ColumnCount(VInt)
 *                SectionEnd(VInt)^(2 + ColumnCount) Times Raw Column^ColumnCount CRC32C(int, BE)
 * Times       := (Newest - Time)(VLong)^Count            newest first, so every delta is >= 0
 * Raw         := Length(VInt)^Count Bytes                the events' UTF-8 texts back to back
 * Column      := Name(string) DictionarySize(VInt) Value(string)^DictionarySize
 *                (ValueCount(VInt) Code(VInt)^ValueCount)^Count
 * </pre>
 *
 * {@code SectionEnd} gives where each section ends, counted from the first byte after the section
 * table, so a reader finds any section without decoding the ones before it. Times are epoch
 * microseconds. A column holds one field: {@code host}, {@code source}, {@code sourcetype} (one
 * value per event) and the index-time fields (zero or more values per event, each a code into the
 * column's dictionary of distinct values in first-seen order). The checksum covers every byte
 * before it. A block holds at most {@link #MAX_EVENTS} events.
 */
public final class EventBlockFormat {
  public static final byte VERSION = 1;

  /** The most events one block holds. */
  public static final int MAX_EVENTS = 4096;

  /** The resource name in corruption messages. */
  static final String RESOURCE = "event block";

  private EventBlockFormat() {}
}
