package io.quarry.codecs.block;

import io.quarry.codecs.store.AsciiText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.store.ByteArrayDataInput;

/**
 * One event block read back ({@link EventBlockFormat}): checked whole when opened (version, section
 * table, checksum), then decoded a part at a time — the times when one is asked for, the raw texts'
 * offsets when one is asked for (the texts themselves stay bytes in the block until {@link #raw}
 * makes a string), each column only when it is named. A version 2 block may name a column whose
 * values it does not hold ({@link #isElsewhere}): its reader takes them from where the writer put
 * them. What the writer recorded of the texts' bytes ({@link #texts}) tells a reader whether it may
 * view them as ASCII without looking at them. Not thread-safe.
 */
public final class EventBlock {
  private final byte[] bytes;
  private final byte version;
  private final Texts texts;
  private final int count;
  private final long newest;
  private final int[] sectionStarts; // absolute offsets; sectionStarts[s + 1] is where s ends
  private final Map<String, Integer> columnSections; // a column's name: its section
  private final java.util.Set<String> elsewhere;

  private long[] times;
  private int[] rawStarts; // absolute offsets, rawStarts[i + 1] is where event i's text ends
  private final Map<String, Column> columns = new LinkedHashMap<>();

  private EventBlock(byte[] bytes, EventBlockHeader header) {
    this.bytes = bytes;
    this.version = header.version();
    this.texts = header.texts();
    this.count = header.count();
    this.newest = header.newest();
    this.sectionStarts = header.sectionStarts();
    this.columnSections = header.columnSections();
    this.elsewhere = header.elsewhere();
  }

  /**
   * Opens the block in {@code bytes[offset, offset + length)}, in place: the block reads those
   * bytes (a journal's decoded block, lent for good) and they must not change.
   *
   * @throws CorruptBlockException when it fails its checksum, is cut short or of another version
   */
  public static EventBlock open(byte[] bytes, int offset, int length) throws CorruptBlockException {
    return open(bytes, offset, length, true);
  }

  /**
   * As {@link #open}, for bytes that a checksum covering all of them has just verified — a
   * journal's decoded block, whose CRC32C its reader checks on every decode ({@code
   * journal.KeptBinaryFieldVisitor}): the block's own checksum over the same bytes is not computed
   * again (a second pass over the ~250 KB of every block a search reads). Everything else is
   * checked as {@link #open} checks it.
   */
  public static EventBlock openVerified(byte[] bytes, int offset, int length)
      throws CorruptBlockException {
    return open(bytes, offset, length, false);
  }

  private static EventBlock open(byte[] bytes, int offset, int length, boolean checksum)
      throws CorruptBlockException {
    return new EventBlock(bytes, EventBlockHeader.read(bytes, offset, length, checksum));
  }

  private ByteArrayDataInput section(int s) {
    return new ByteArrayDataInput(bytes, sectionStarts[s], sectionStarts[s + 1] - sectionStarts[s]);
  }

  /** The grammar version: {@link EventBlockFormat#VERSION} or {@code VERSION_ELSEWHERE}. */
  public byte version() {
    return version;
  }

  /**
   * What the writer recorded of the texts' bytes: {@link Texts#UNRECORDED} for a block written
   * before the header held it (session 32), whose bytes a reader checks itself.
   */
  public Texts texts() {
    return texts;
  }

  /** What a block's header records of its raw texts' bytes ({@link EventBlockFormat}). */
  public enum Texts {
    /** Written before the header recorded it: the texts may be ASCII or not. */
    UNRECORDED,
    /** Some text has a byte of 0x80 or above (a UTF-8 multi-byte character). */
    SOME_NOT_ASCII,
    /** Every byte of every text is below 0x80: each is one character. */
    ALL_ASCII
  }

  /** The number of events. */
  public int count() {
    return count;
  }

  /** The newest event's time (the first event's), epoch microseconds; 0 for an empty block. */
  public long newest() {
    return newest;
  }

  /** Event {@code i}'s time, epoch microseconds. */
  public long time(int i) {
    if (times == null) {
      times = decodeTimes(section(0), count, newest);
    }
    return times[i];
  }

  /**
   * The {@code Times} section's {@code count} times read from {@code in}, newest first, epoch
   * microseconds (shared with {@link EventBlockTimes}).
   */
  static long[] decodeTimes(ByteArrayDataInput in, int count, long newest) {
    long[] decoded = new long[count];
    for (int e = 0; e < count; e++) {
      decoded[e] = newest - in.readVLong();
    }
    return decoded;
  }

  /**
   * Where event {@code i}'s UTF-8 text starts in {@link #bytes()}; {@code i == count()}: where the
   * texts end.
   */
  public int rawOffset(int i) {
    rawStarts();
    return rawStarts[i];
  }

  /** The length of event {@code i}'s UTF-8 text. */
  public int rawLength(int i) {
    rawStarts();
    return rawStarts[i + 1] - rawStarts[i];
  }

  /** Event {@code i}'s text. */
  public String raw(int i) {
    return new String(bytes, rawOffset(i), rawLength(i), StandardCharsets.UTF_8);
  }

  /**
   * Where each text starts in {@link #bytes}, one past the last its end: event {@code i}'s text is
   * {@code [starts[i], starts[i + 1])}, for a loop over many texts; not to be changed.
   */
  public int[] rawBounds() {
    rawStarts();
    return rawStarts;
  }

  /** The block's bytes, which {@link #rawOffset} points into; not to be changed. */
  public byte[] bytes() {
    return bytes;
  }

  private void rawStarts() {
    if (rawStarts == null) {
      // the lengths (vints) first, then the texts: decoded in place, once per block
      int[] starts = new int[count + 1];
      int at = sectionStarts[1];
      for (int e = 0; e < count; e++) {
        int b = bytes[at++];
        int length = b & 0x7F;
        for (int shift = 7; b < 0; shift += 7) {
          b = bytes[at++];
          length |= (b & 0x7F) << shift;
        }
        starts[e + 1] = length; // the length for now, the end once summed below
      }
      starts[0] = at;
      for (int e = 0; e < count; e++) {
        starts[e + 1] += starts[e];
      }
      rawStarts = starts;
    }
  }

  /**
   * Decodes the whole block and checks what its checksum cannot: that the writer kept the grammar
   * ({@link EventBlockFormat}). Times newest first and none newer than {@link #newest}, the raw
   * texts' lengths filling their section and their bytes as the header records them ({@link
   * #texts}: a search trusts it), every column decoding to exactly its section with codes inside
   * its dictionary. For {@code quarry fsck}: a search decodes only what it reads.
   *
   * @throws CorruptBlockException naming the first part that breaks the grammar
   */
  public void verify() throws CorruptBlockException {
    try {
      ByteArrayDataInput in = section(0);
      long previous = newest;
      for (int e = 0; e < count; e++) {
        long time = newest - in.readVLong();
        if (time > previous) {
          throw new CorruptBlockException(
              "event block times not newest first at event " + e + " of " + count);
        }
        previous = time;
      }
      if (!in.eof()) {
        throw new CorruptBlockException("event block times section has bytes past its events");
      }
      rawStarts();
      if (rawStarts[count] != sectionStarts[2]) {
        throw new CorruptBlockException("event block texts do not fill their section");
      }
      if (texts != Texts.UNRECORDED) {
        boolean ascii = AsciiText.isAscii(bytes, rawStarts[0], rawStarts[count] - rawStarts[0]);
        if (ascii != (texts == Texts.ALL_ASCII)) {
          throw new CorruptBlockException(
              "event block header records its texts as " + texts + ", they are not");
        }
      }
      for (Map.Entry<String, Integer> column : columnSections.entrySet()) {
        ByteArrayDataInput section = section(column.getValue());
        if (elsewhere.contains(column.getKey())) {
          section.readString();
          section.readByte();
        } else {
          Column.decode(section, version, count);
        }
        if (!section.eof()) {
          throw new CorruptBlockException(
              "event block column '" + column.getKey() + "' has bytes past its events");
        }
      }
    } catch (CorruptBlockException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new CorruptBlockException("event block cannot be decoded: " + e);
    }
  }

  /** The fields the block has columns for: host, source, sourcetype, then index-time fields. */
  public List<String> columnNames() {
    return new ArrayList<>(columnSections.keySet());
  }

  /** Whether the block has a column for {@code name} (holding its values or not). */
  public boolean hasColumn(String name) {
    return columnSections.containsKey(name);
  }

  /**
   * Whether the block names a column for {@code name} but holds its values elsewhere (version 2):
   * {@link #column} has none to give.
   */
  public boolean isElsewhere(String name) {
    return elsewhere.contains(name);
  }

  /**
   * A field's column, or null when no event of the block has the field.
   *
   * @throws CorruptBlockException when the column's section does not decode
   * @throws IllegalStateException when the column's values are elsewhere ({@link #isElsewhere})
   */
  public Column column(String name) throws CorruptBlockException {
    if (elsewhere.contains(name)) {
      throw new IllegalStateException("the block holds column '" + name + "' elsewhere");
    }
    Column column = columns.get(name);
    if (column == null && columnSections.containsKey(name)) {
      try {
        column = Column.decode(section(columnSections.get(name)), version, count);
      } catch (IOException | RuntimeException e) {
        throw new CorruptBlockException("event block column '" + name + "': " + e);
      }
      columns.put(name, column);
    }
    return column;
  }

  /** One field's values: a dictionary of distinct values and each event's codes into it. */
  public static final class Column {
    private final String[] dictionary;
    private final int[] firstCode; // event e's codes are codes[firstCode[e], firstCode[e + 1])
    private final int[] codes;

    private Column(String[] dictionary, int[] firstCode, int[] codes) {
      this.dictionary = dictionary;
      this.firstCode = firstCode;
      this.codes = codes;
    }

    static Column decode(ByteArrayDataInput in, byte version, int count) throws IOException {
      in.readString(); // the name, known already
      if (version == EventBlockFormat.VERSION_ELSEWHERE && in.readByte() != EventBlockFormat.HERE) {
        throw new IllegalStateException("column values are not here");
      }
      String[] dictionary = new String[in.readVInt()];
      for (int d = 0; d < dictionary.length; d++) {
        dictionary[d] = in.readString();
      }
      int[] firstCode = new int[count + 1];
      int[] codes = new int[Math.max(count, 4)];
      int size = 0;
      for (int e = 0; e < count; e++) {
        int values = in.readVInt();
        if (size + values > codes.length) {
          codes = java.util.Arrays.copyOf(codes, Math.max(codes.length * 2, size + values));
        }
        for (int v = 0; v < values; v++) {
          int code = in.readVInt();
          if (code >= dictionary.length) {
            throw new IllegalStateException("code " + code + " past the dictionary");
          }
          codes[size++] = code;
        }
        firstCode[e + 1] = size;
      }
      return new Column(dictionary, firstCode, codes);
    }

    /** The number of distinct values. */
    public int dictionarySize() {
      return dictionary.length;
    }

    /** The distinct value of a code. */
    public String value(int code) {
      return dictionary[code];
    }

    /** How many values event {@code e} has. */
    public int valueCount(int e) {
      return firstCode[e + 1] - firstCode[e];
    }

    /** The code of event {@code e}'s {@code v}-th value. */
    public int code(int e, int v) {
      return codes[firstCode[e] + v];
    }

    /** Event {@code e}'s values. */
    public List<String> values(int e) {
      List<String> values = new ArrayList<>(valueCount(e));
      for (int v = 0; v < valueCount(e); v++) {
        values.add(dictionary[code(e, v)]);
      }
      return values;
    }
  }
}
