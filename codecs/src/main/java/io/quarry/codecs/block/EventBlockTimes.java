package io.quarry.codecs.block;

import java.io.IOException;
import org.apache.lucene.store.ByteArrayDataInput;

/**
 * An event block's times read from its first bytes alone (session 33): the grammar ({@link
 * EventBlockFormat}) puts {@code Times} right after the header and the section table, before the
 * texts, so a reader that has decoded only that far — a journal block decoded no further ({@code
 * journal.JournalPrefix}) — gets every event's time without the texts and columns.
 *
 * <p>The block's checksum, after its last section, cannot be checked from a prefix: this checks
 * what it reads (version, header, event count, section bounds) and the caller what it knows (the
 * count and the oldest and newest times its doc values hold); the texts are verified when a full
 * read decodes them and by {@link EventBlock#verify} ({@code quarry fsck}).
 */
public final class EventBlockTimes {
  private EventBlockTimes() {}

  /**
   * Where the times of the block starting at {@code bytes[offset]} end, counted from {@code
   * offset}, or -1 when its header and section table do not lie within the {@code available} bytes
   * (decode more and ask again).
   *
   * @param length the block's whole length, of which only {@code available} bytes may be decoded
   * @throws CorruptBlockException when the header is not a block's
   */
  public static int end(byte[] bytes, int offset, int available, int length) throws IOException {
    if (available < Math.min(HEADER, length)) {
      return -1;
    }
    try {
      ByteArrayDataInput in = header(bytes, offset, available);
      int count = in.readVInt();
      in.readZLong(); // newest
      int columns = in.readVInt();
      if (in.getPosition() - offset > available) {
        return more(available, length); // read past the decoded bytes: their values are stale
      }
      if (count < 0 || count > EventBlockFormat.MAX_EVENTS || columns < 0) {
        throw new CorruptBlockException(
            "event block header: " + count + " events, " + columns + " columns");
      }
      if (available < length && HEADER + 5L * (2 + columns) > available) {
        return -1; // the section table may run past what is decoded
      }
      int timesEnd = in.readVInt();
      for (int s = 1; s < 2 + columns; s++) {
        in.readVInt();
      }
      if (in.getPosition() - offset > available) {
        return more(available, length);
      }
      long end = (long) in.getPosition() - offset + timesEnd;
      if (timesEnd < 0 || end > length - Integer.BYTES) {
        throw new CorruptBlockException("event block times end at " + end + " of " + length);
      }
      return (int) end;
    } catch (RuntimeException e) {
      throw new CorruptBlockException("event block header cannot be decoded: " + e);
    }
  }

  /** -1 when more of the block may be decoded, else its header runs past its end: corrupt. */
  private static int more(int available, int length) throws CorruptBlockException {
    if (available < length) {
      return -1;
    }
    throw new CorruptBlockException("event block header runs past its " + length + " bytes");
  }

  /** The most bytes of a header before its section table: the header byte, three vints. */
  private static final int HEADER = 1 + 5 + 10 + 5;

  /**
   * The times, newest first, epoch microseconds, of the block starting at {@code bytes[offset]}
   * whose first {@code end} bytes ({@link #end}) are decoded.
   *
   * @throws CorruptBlockException when the times section does not hold one time per event
   */
  public static long[] read(byte[] bytes, int offset, int end) throws IOException {
    long[] times;
    ByteArrayDataInput in;
    try {
      in = header(bytes, offset, end);
      int count = in.readVInt();
      long newest = in.readZLong();
      int columns = in.readVInt();
      for (int s = 0; s < 2 + columns; s++) {
        in.readVInt();
      }
      times = EventBlock.decodeTimes(in, count, newest);
    } catch (RuntimeException e) {
      throw new CorruptBlockException("event block times cannot be decoded: " + e);
    }
    if (in.getPosition() != offset + end) {
      throw new CorruptBlockException(
          "event block times end at " + (in.getPosition() - offset) + ", not " + end);
    }
    return times;
  }

  /** An input after the block's header byte, which it checks, positioned at {@code Count}. */
  private static ByteArrayDataInput header(byte[] bytes, int offset, int available)
      throws IOException {
    if (available < 1) {
      throw new CorruptBlockException("an event block of no bytes");
    }
    EventBlockHeader.texts(bytes[offset] & 0xFF);
    return new ByteArrayDataInput(bytes, offset + 1, available - 1);
  }
}
