package io.quarry.codecs.block;

import java.io.IOException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32C;
import org.apache.lucene.store.ByteArrayDataInput;

/**
 * What opening an event block checks and keeps ({@link EventBlockFormat}): the checksum over the
 * block (unless a journal's own has just covered the same bytes), the header byte (the grammar
 * version and what the writer recorded of the texts' bytes), the events' count and newest time, the
 * section table (every section inside the block, the last ending at the checksum), and each
 * column's name, section and whether its values are {@linkplain EventBlock#isElsewhere elsewhere}.
 * Everything past it — times, texts, column values — {@link EventBlock} decodes when asked.
 */
final class EventBlockHeader {
  private final byte version;
  private final EventBlock.Texts texts;
  private final int count;
  private final long newest;
  private final int[] sectionStarts; // absolute offsets; sectionStarts[s + 1] is where s ends
  private final Map<String, Integer> columnSections; // in the block's order
  private final Set<String> elsewhere;

  private EventBlockHeader(
      byte version,
      EventBlock.Texts texts,
      int count,
      long newest,
      int[] sectionStarts,
      Map<String, Integer> columnSections,
      Set<String> elsewhere) {
    this.version = version;
    this.texts = texts;
    this.count = count;
    this.newest = newest;
    this.sectionStarts = sectionStarts;
    this.columnSections = columnSections;
    this.elsewhere = elsewhere;
  }

  /**
   * Reads the header of the block in {@code bytes[offset, offset + length)}, after checking its
   * checksum when {@code checksum}.
   *
   * @throws CorruptBlockException when it fails its checksum, is cut short or of another version
   */
  static EventBlockHeader read(byte[] bytes, int offset, int length, boolean checksum)
      throws CorruptBlockException {
    if (length < 1 + Integer.BYTES) {
      throw new CorruptBlockException("an event block of " + length + " bytes is cut short");
    }
    java.util.Objects.checkFromIndexSize(offset, length, bytes.length);
    byte[] block = bytes;
    int body = offset + length - Integer.BYTES; // where the checksum starts
    if (checksum) {
      CRC32C crc = new CRC32C();
      crc.update(block, offset, body - offset);
      int stored = 0;
      for (int i = 0; i < Integer.BYTES; i++) {
        stored = (stored << 8) | (block[body + i] & 0xFF);
      }
      if (stored != (int) crc.getValue()) {
        throw new CorruptBlockException(
            "event block checksum mismatch: stored "
                + Integer.toHexString(stored)
                + ", computed "
                + Integer.toHexString((int) crc.getValue()));
      }
    }
    EventBlock.Texts texts = texts(block[offset] & 0xFF);
    byte version = (byte) (block[offset] & EventBlockFormat.VERSION_BITS); // checked by texts
    try {
      ByteArrayDataInput in = new ByteArrayDataInput(block, offset + 1, body - offset - 1);
      int count = in.readVInt();
      long newest = in.readZLong();
      int columnCount = in.readVInt();
      if (count < 0 || count > EventBlockFormat.MAX_EVENTS || columnCount < 0) {
        throw new CorruptBlockException(
            "event block header: " + count + " events, " + columnCount + " columns");
      }
      int[] ends = new int[2 + columnCount];
      for (int s = 0; s < ends.length; s++) {
        ends[s] = in.readVInt();
      }
      int base = in.getPosition();
      int[] starts = new int[ends.length + 1];
      starts[0] = base;
      for (int s = 0; s < ends.length; s++) {
        starts[s + 1] = base + ends[s];
        if (starts[s + 1] < starts[s] || starts[s + 1] > body) {
          throw new CorruptBlockException("event block section " + s + " ends out of bounds");
        }
      }
      if (starts[ends.length] != body) {
        throw new CorruptBlockException("event block sections do not end at its checksum");
      }
      Map<String, Integer> columnSections = new LinkedHashMap<>();
      Set<String> elsewhere = new HashSet<>();
      for (int c = 0; c < columnCount; c++) {
        ByteArrayDataInput column =
            new ByteArrayDataInput(block, starts[2 + c], starts[3 + c] - starts[2 + c]);
        String name = column.readString();
        if (columnSections.put(name, 2 + c) != null) {
          throw new CorruptBlockException("event block has two columns '" + name + "'");
        }
        if (version == EventBlockFormat.VERSION_ELSEWHERE) {
          byte where = column.readByte();
          if (where == EventBlockFormat.ELSEWHERE) {
            elsewhere.add(name);
          } else if (where != EventBlockFormat.HERE) {
            throw new CorruptBlockException("event block column '" + name + "' marked " + where);
          }
        }
      }
      return new EventBlockHeader(version, texts, count, newest, starts, columnSections, elsewhere);
    } catch (CorruptBlockException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      // a length or count pointing past the end: the checksum matched, so the writer was wrong
      throw new CorruptBlockException("event block cannot be decoded: " + e);
    }
  }

  /**
   * What an event block's header byte records of its texts, once its version is checked (shared
   * with {@link EventBlockTimes}, which reads a block's times without opening it).
   *
   * @throws CorruptBlockException when the version is not a block's or the texts are recorded both
   *     ways
   */
  static EventBlock.Texts texts(int header) throws CorruptBlockException {
    byte version = (byte) (header & EventBlockFormat.VERSION_BITS);
    if (version != EventBlockFormat.VERSION && version != EventBlockFormat.VERSION_ELSEWHERE) {
      throw new CorruptBlockException(
          "event block version "
              + version
              + " is not "
              + EventBlockFormat.VERSION
              + " or "
              + EventBlockFormat.VERSION_ELSEWHERE);
    }
    return switch (header & ~EventBlockFormat.VERSION_BITS) {
      case 0 -> EventBlock.Texts.UNRECORDED;
      case EventBlockFormat.ALL_ASCII -> EventBlock.Texts.ALL_ASCII;
      case EventBlockFormat.SOME_NOT_ASCII -> EventBlock.Texts.SOME_NOT_ASCII;
      default ->
          throw new CorruptBlockException(
              "event block header " + Integer.toHexString(header) + " records texts both ways");
    };
  }

  /** The grammar version: {@link EventBlockFormat#VERSION} or {@code VERSION_ELSEWHERE}. */
  byte version() {
    return version;
  }

  EventBlock.Texts texts() {
    return texts;
  }

  int count() {
    return count;
  }

  long newest() {
    return newest;
  }

  /** Each section's start, absolute; the entry after a section's is where it ends. */
  int[] sectionStarts() {
    return sectionStarts;
  }

  /** The columns' names, in the block's order, each with its section; not to be changed. */
  Map<String, Integer> columnSections() {
    return columnSections;
  }

  /** The columns whose values the block does not hold; not to be changed. */
  Set<String> elsewhere() {
    return elsewhere;
  }
}
