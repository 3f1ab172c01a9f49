package io.quarry.codecs.block;

import io.quarry.codecs.store.Event;
import io.quarry.codecs.store.EventFields;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32C;
import org.apache.lucene.store.ByteBuffersDataOutput;

/**
 * Encodes events, newest first, as one event block ({@link EventBlockFormat}): the times as deltas
 * from the newest, the raw texts, and a dictionary-coded column for {@code host}, {@code source},
 * {@code sourcetype} and each index-time field. Stateless.
 *
 * <p>A column whose values the caller keeps elsewhere ({@link #write(List, Set)}) is written as its
 * name alone (version 2); a block with no such column is version 1.
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
    return write(events, null, elsewhere);
  }

  /**
   * The block of {@code events} as {@link #write(List, Set)} gives it, given each event's {@code
   * _raw} bytes where it is ASCII ({@code asciiRaws[i]}, null for a text that is not; the array
   * itself may be null), so they are not encoded again.
   */
  public static byte[] write(List<Event> events, byte[][] asciiRaws, Set<String> elsewhere) {
    if (events.size() > EventBlockFormat.MAX_EVENTS) {
      throw new IllegalArgumentException(
          "a block holds at most " + EventBlockFormat.MAX_EVENTS + " events, not " + events.size());
    }
    long newest = events.isEmpty() ? 0 : events.get(0).timeMicros();
    try {
      List<byte[]> sections = new ArrayList<>();
      sections.add(times(events, newest));
      sections.add(raw(events, asciiRaws));
      Set<String> names = columnNames(events);
      boolean anyElsewhere = false;
      for (String name : names) {
        anyElsewhere |= elsewhere.contains(name);
      }
      for (String name : names) {
        if (!anyElsewhere) {
          sections.add(column(name, values(events, name)));
        } else if (elsewhere.contains(name)) {
          sections.add(column(name, List.of(), true)); // no values gathered for it
        } else {
          sections.add(column(name, values(events, name), false));
        }
      }
      ByteBuffersDataOutput out = new ByteBuffersDataOutput();
      out.writeByte(anyElsewhere ? EventBlockFormat.VERSION_ELSEWHERE : EventBlockFormat.VERSION);
      out.writeVInt(events.size());
      out.writeZLong(newest);
      out.writeVInt(sections.size() - 2);
      int end = 0;
      for (byte[] section : sections) {
        end += section.length;
        out.writeVInt(end);
      }
      for (byte[] section : sections) {
        out.writeBytes(section, section.length);
      }
      byte[] body = out.toArrayCopy();
      CRC32C crc = new CRC32C();
      crc.update(body);
      byte[] block = java.util.Arrays.copyOf(body, body.length + Integer.BYTES);
      int checksum = (int) crc.getValue();
      for (int i = 0; i < Integer.BYTES; i++) {
        block[body.length + i] = (byte) (checksum >>> (24 - 8 * i));
      }
      return block;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e); // ByteBuffersDataOutput does not fail
    }
  }

  private static byte[] times(List<Event> events, long newest) throws IOException {
    ByteBuffersDataOutput out = new ByteBuffersDataOutput();
    long previous = newest;
    for (Event event : events) {
      long time = event.timeMicros();
      if (time > previous) {
        throw new IllegalArgumentException(
            "events must come newest first: " + time + " after " + previous);
      }
      out.writeVLong(newest - time);
      previous = time;
    }
    return out.toArrayCopy();
  }

  /** The texts' UTF-8 lengths, then their bytes back to back; each text encoded once. */
  private static byte[] raw(List<Event> events, byte[][] asciiRaws) throws IOException {
    byte[][] texts = new byte[events.size()][];
    int bytes = 0;
    for (int i = 0; i < texts.length; i++) {
      byte[] ascii = asciiRaws == null ? null : asciiRaws[i];
      texts[i] = ascii != null ? ascii : events.get(i).raw().getBytes(StandardCharsets.UTF_8);
      bytes += texts[i].length;
    }
    ByteBuffersDataOutput out = new ByteBuffersDataOutput(5L * texts.length + bytes);
    for (byte[] text : texts) {
      out.writeVInt(text.length);
    }
    for (byte[] text : texts) {
      out.writeBytes(text, text.length);
    }
    return out.toArrayCopy();
  }

  /** Every field's name, in first-seen field order; the default fields first. */
  private static Set<String> columnNames(List<Event> events) {
    Set<String> names = new LinkedHashSet<>(List.of(EventFields.HOST, EventFields.SOURCE));
    names.add(EventFields.SOURCETYPE);
    for (Event event : events) {
      names.addAll(event.indexedFields().keySet());
    }
    return names;
  }

  /** One field's values per event. */
  private static List<List<String>> values(List<Event> events, String name) {
    List<List<String>> values = new ArrayList<>(events.size());
    for (Event event : events) {
      values.add(
          switch (name) {
            case EventFields.HOST -> List.of(event.host());
            case EventFields.SOURCE -> List.of(event.source());
            case EventFields.SOURCETYPE -> List.of(event.sourcetype());
            default -> event.indexedFields().getOrDefault(name, List.of());
          });
    }
    return values;
  }

  /** A version 2 column: its name, then whether its values follow, then the values if they do. */
  private static byte[] column(String name, List<List<String>> values, boolean elsewhere)
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
  private static byte[] column(String name, List<List<String>> values) throws IOException {
    ByteBuffersDataOutput out = new ByteBuffersDataOutput();
    out.writeString(name);
    values(out, values);
    return out.toArrayCopy();
  }

  private static void values(ByteBuffersDataOutput out, List<List<String>> values)
      throws IOException {
    Map<String, Integer> dictionary = new LinkedHashMap<>();
    for (List<String> eventValues : values) {
      for (String value : eventValues) {
        dictionary.putIfAbsent(value, dictionary.size());
      }
    }
    out.writeVInt(dictionary.size());
    for (String value : dictionary.keySet()) {
      out.writeString(value);
    }
    for (List<String> eventValues : values) {
      out.writeVInt(eventValues.size());
      for (String value : eventValues) {
        out.writeVInt(dictionary.get(value));
      }
    }
  }
}
