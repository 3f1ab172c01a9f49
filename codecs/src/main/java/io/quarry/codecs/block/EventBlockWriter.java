package io.quarry.codecs.block;

import io.quarry.codecs.store.AsciiText;
import io.quarry.codecs.store.Event;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32C;
import org.apache.lucene.store.ByteArrayDataOutput;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.BytesRefBuilder;

/**
 * Encodes events, newest first, as one event block ({@link EventBlockFormat}): the times as deltas
 * from the newest, the raw texts, and a dictionary-coded column for {@code host}, {@code source},
 * {@code sourcetype} and each index-time field. Stateless.
 *
 * <p>A column whose values the caller keeps elsewhere ({@link #write(List, Set)}) is written as its
 * name alone (version 2); a block with no such column is version 1. The header records whether
 * every text is ASCII: known from an encoded text's length, and checked over the bytes a caller
 * gives as ASCII.
 */
public final class EventBlockWriter {
  private EventBlockWriter() {}

  /**
   * The block of {@code events}.
   *
   * @throws IllegalArgumentException when the events are not newest first, or more than {@link
   *     EventBlockFormat#MAX_EVENTS}
   */
  public static byte[] write(List<Event> events) {
    return write(events, Set.of());
  }

  /**
   * The block of {@code events}, holding the values of every column but those named in {@code
   * elsewhere}: those the caller stores outside the block, where the block's reader finds them
   * (version 2 when one is left out, else version 1).
   *
   * @throws IllegalArgumentException when the events are not newest first, or more than {@link
   *     EventBlockFormat#MAX_EVENTS}
   */
  public static byte[] write(List<Event> events, Set<String> elsewhere) {
    return write(events, elsewhere, null).bytes; // a new array of exactly the block's bytes
  }

  /**
   * {@link #write(List, Set)} into {@code into}'s array (grown when short), so a writer of many
   * blocks reuses one array instead of allocating each block's (about the size of its texts): the
   * block is the returned slice, valid until {@code into} is written again. With {@code into} null,
   * a new array of exactly the block's length.
   */
  public static BytesRef write(List<Event> events, Set<String> elsewhere, BytesRefBuilder into) {
    if (events.size() > EventBlockFormat.MAX_EVENTS) {
      throw new IllegalArgumentException(
          "a block holds at most " + EventBlockFormat.MAX_EVENTS + " events, not " + events.size());
    }
    long newest = events.isEmpty() ? 0 : events.get(0).timeMicros();
    try {
      byte[] times = times(events, newest);
      byte[][] texts = new byte[events.size()][];
      int[] offsets = new int[texts.length];
      int[] lengths = new int[texts.length];
      boolean allAscii = texts(events, texts, offsets, lengths);
      int rawLength = rawSectionLength(lengths);
      BlockColumnValues gathered = BlockColumnValues.of(events, elsewhere);
      List<byte[]> columns = new ArrayList<>(gathered.size());
      boolean anyElsewhere = false;
      for (int c = 0; c < gathered.size(); c++) {
        anyElsewhere |= elsewhere.contains(gathered.name(c));
      }
      for (int c = 0; c < gathered.size(); c++) {
        String name = gathered.name(c);
        if (!anyElsewhere) {
          columns.add(column(name, gathered.values(c)));
        } else if (elsewhere.contains(name)) {
          columns.add(column(name, null, true)); // no values written for it
        } else {
          columns.add(column(name, gathered.values(c), false));
        }
      }
      // the header, then every section written once into the block's one array: the raw texts,
      // nearly all of its bytes, are copied from the events' bytes straight to their place
      ByteBuffersDataOutput header = new ByteBuffersDataOutput();
      header.writeByte(
          (byte)
              ((anyElsewhere ? EventBlockFormat.VERSION_ELSEWHERE : EventBlockFormat.VERSION)
                  | (allAscii ? EventBlockFormat.ALL_ASCII : EventBlockFormat.SOME_NOT_ASCII)));
      header.writeVInt(events.size());
      header.writeZLong(newest);
      header.writeVInt(columns.size());
      int end = times.length;
      header.writeVInt(end);
      end += rawLength;
      header.writeVInt(end);
      for (byte[] column : columns) {
        end += column.length;
        header.writeVInt(end);
      }
      int bodyLength = Math.toIntExact(header.size() + end);
      byte[] block;
      if (into == null) {
        block = new byte[bodyLength + Integer.BYTES];
      } else {
        into.clear();
        into.growNoCopy(bodyLength + Integer.BYTES);
        block = into.bytes();
      }
      ByteArrayDataOutput out = new ByteArrayDataOutput(block);
      header.copyTo(out);
      writeSections(out, times, texts, offsets, lengths, columns);
      CRC32C crc = new CRC32C();
      crc.update(block, 0, bodyLength);
      int checksum = (int) crc.getValue();
      for (int i = 0; i < Integer.BYTES; i++) {
        block[bodyLength + i] = (byte) (checksum >>> (24 - 8 * i));
      }
      return new BytesRef(block, 0, bodyLength + Integer.BYTES);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e); // neither output fails
    }
  }

  /**
   * Writes the sections after the header: the times, the texts' lengths and bytes, the columns. Its
   * own method, so its loops over a block's events are compiled on their own: inside {@link #write}
   * (called once a block) the C2 compiler compiled its loop by on-stack replacement with all of
   * {@code write} inlined, besides {@code write} itself (session 41, JFR's {@code
   * jdk.Compilation}).
   */
  private static void writeSections(
      ByteArrayDataOutput out,
      byte[] times,
      byte[][] texts,
      int[] offsets,
      int[] lengths,
      List<byte[]> columns)
      throws IOException {
    out.writeBytes(times, times.length);
    for (int length : lengths) {
      out.writeVInt(length);
    }
    for (int i = 0; i < texts.length; i++) {
      out.writeBytes(texts[i], offsets[i], lengths[i]);
    }
    for (byte[] column : columns) {
      out.writeBytes(column, column.length);
    }
  }

  /**
   * The times section: each event's distance from the newest as a vlong, into one array of the
   * largest size it can take (nine bytes a non-negative vlong at most), cut to its length — not a
   * {@code ByteBuffersDataOutput} and its block list per block.
   */
  private static byte[] times(List<Event> events, long newest) throws IOException {
    byte[] bytes = new byte[events.size() * 9];
    ByteArrayDataOutput out = new ByteArrayDataOutput(bytes);
    long previous = newest;
    for (int i = 0; i < events.size(); i++) {
      long time = events.get(i).timeMicros();
      if (time > previous) {
        throw new IllegalArgumentException(
            "events must come newest first: " + time + " after " + previous);
      }
      out.writeVLong(newest - time);
      previous = time;
    }
    return Arrays.copyOf(bytes, out.getPosition());
  }

  /**
   * Puts each event's text as UTF-8 in {@code texts[i]} at {@code offsets[i]} for {@code
   * lengths[i]}: the event's own ASCII range where it holds one ({@link Event#asciiArray}, often
   * the request body's, not copied here), else encoded once; whether every text is ASCII. An
   * encoded text is exactly when it has as many bytes as its {@code String} has characters, since
   * every other character takes two bytes or more (a surrogate pair four) and a lone surrogate is
   * encoded as one byte, {@code ?}. The held bytes are checked ({@link AsciiText#isAscii}), not
   * trusted: a caller's non-ASCII bytes recorded as ASCII would be read one byte per character by
   * every search of the block. (Measured: the check costs ~20 ns of thread CPU per 170-byte event
   * over the writer's ~170 — checking each text where it was just copied to instead cost the same;
   * a second walk over the events' strings for their lengths, cold by then, cost ~8% of the block
   * writer's CPU.)
   */
  private static boolean texts(List<Event> events, byte[][] texts, int[] offsets, int[] lengths) {
    boolean allAscii = true;
    for (int i = 0; i < texts.length; i++) {
      Event event = events.get(i);
      byte[] ascii = event.asciiArray();
      if (ascii != null) {
        offsets[i] = event.asciiOffset();
        lengths[i] = event.asciiLength();
        allAscii = allAscii && AsciiText.isAscii(ascii, offsets[i], lengths[i]);
        texts[i] = ascii;
      } else {
        String raw = event.raw();
        texts[i] = raw.getBytes(StandardCharsets.UTF_8);
        lengths[i] = texts[i].length;
        allAscii &= texts[i].length == raw.length();
      }
    }
    return allAscii;
  }

  /** The raw section's length: the texts' UTF-8 lengths as vints, then their bytes. */
  private static int rawSectionLength(int[] lengths) {
    long length = 0;
    for (int text : lengths) {
      length += vIntLength(text) + text;
    }
    return Math.toIntExact(length);
  }

  /** The bytes {@code DataOutput.writeVInt} writes for a non-negative {@code value}. */
  private static int vIntLength(int value) {
    return (38 - Integer.numberOfLeadingZeros(value | 1)) / 7;
  }

  /** A version 2 column: its name, then whether its values follow, then the values if they do. */
  private static byte[] column(String name, List<String>[] values, boolean elsewhere)
      throws IOException {
    ByteBuffersDataOutput out = new ByteBuffersDataOutput();
    out.writeString(name);
    out.writeByte(elsewhere ? EventBlockFormat.ELSEWHERE : EventBlockFormat.HERE);
    if (!elsewhere) {
      values(out, values);
    }
    return out.toArrayCopy();
  }

  /** A version 1 column: its name and its values. */
  private static byte[] column(String name, List<String>[] values) throws IOException {
    ByteBuffersDataOutput out = new ByteBuffersDataOutput();
    out.writeString(name);
    values(out, values);
    return out.toArrayCopy();
  }

  private static void values(ByteBuffersDataOutput out, List<String>[] values) throws IOException {
    Map<String, Integer> dictionary = new LinkedHashMap<>();
    for (List<String> eventValues : values) {
      for (int v = 0; eventValues != null && v < eventValues.size(); v++) {
        dictionary.putIfAbsent(eventValues.get(v), dictionary.size());
      }
    }
    out.writeVInt(dictionary.size());
    for (String value : dictionary.keySet()) {
      out.writeString(value);
    }
    for (List<String> eventValues : values) {
      if (eventValues == null) { // the event has no value in this column
        out.writeVInt(0);
        continue;
      }
      out.writeVInt(eventValues.size());
      for (int v = 0; v < eventValues.size(); v++) {
        out.writeVInt(dictionary.get(eventValues.get(v)));
      }
    }
  }
}
