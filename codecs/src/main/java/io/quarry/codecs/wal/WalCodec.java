package io.quarry.codecs.wal;

import io.quarry.codecs.store.AsciiText;
import io.quarry.codecs.store.Event;
import io.quarry.codecs.store.SmallFieldMap;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import org.apache.lucene.store.ByteArrayDataInput;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.UnicodeUtil;

/**
 * Serializes a batch of events for the log, format version 2 (session 35): the events' texts as one
 * body, the request body as received when the breaker's events are ranges of it, and per event only
 * what the breaker decided. A record's payload is {@code FirstSeq (vlong), Count (vint),
 * StringCount (vint), String^StringCount, Event^Count, Body}; the strings are the batch's distinct
 * hosts, sources, sourcetypes and field names, each once; an event is {@code Time (zlong), Gap
 * (vint), Length (vint), Host, Source, Sourcetype (vint: a string's number), FieldCount (vint),
 * <Name (vint: a string's number), ValueCount (vint), Value (string)^ValueCount>^FieldCount}; the
 * body is the rest of the payload, and an event's text its {@code Length} UTF-8 bytes {@code Gap}
 * bytes after the previous event's (the first: after the body's start). A string is Lucene's {@code
 * writeString}. Version 1's records ({@link WalRecordV1}) are still read.
 */
final class WalCodec {
  private WalCodec() {}

  /**
   * A batch encoded: {@code out}'s bytes ({@code Count} to the events' end, and the body's bytes
   * when they were copied), then {@code body[bodyOffset, bodyOffset + bodyLength)} (the request
   * body itself, not copied; empty when copied into {@code out}).
   */
  record Encoded(WalOutput out, byte[] body, int bodyOffset, int bodyLength, long rawBytes) {}

  private static final byte[] NO_BODY = new byte[0];

  /**
   * Outputs given back for another batch ({@link #encodePooled}, {@link #giveBack}): an ingest
   * thread encodes a batch and gives the array back once it is appended, so an array is neither
   * allocated nor zeroed per batch. Bounded in count and size, so what is kept does not grow with
   * the number of threads that ever ingested.
   */
  private static final ArrayBlockingQueue<WalOutput> POOL = new ArrayBlockingQueue<>(4);

  /** The largest array kept for another batch. */
  static final int KEPT_BYTES = 16 << 20;

  /** Encodes {@code events} into a new output. */
  static Encoded encode(List<Event> events) throws IOException {
    return encode(events, null);
  }

  /** {@link #encode(List)} into an output from the pool when one is there; give it back after. */
  static Encoded encodePooled(List<Event> events) throws IOException {
    WalOutput pooled = POOL.poll();
    Encoded encoded = encode(events, pooled);
    if (pooled != null && encoded.out() != pooled) {
      giveBack(pooled); // too small for this batch: still good for smaller ones
    }
    return encoded;
  }

  /** Keeps {@code out} for another batch when the pool has room and the array is not too large. */
  static void giveBack(WalOutput out) {
    if (out.bytes.length <= KEPT_BYTES) {
      POOL.offer(out);
    }
  }

  /**
   * The array whose span is the record's body — every text an ASCII range of it, in order, not
   * overlapping, and the bytes between them few (a line feed each) — or null: the texts are copied.
   */
  private static byte[] sharedBody(List<Event> events) {
    byte[] shared = events.isEmpty() ? null : events.get(0).asciiArray();
    long rawBytes = 0;
    int end = shared == null ? 0 : events.get(0).asciiOffset();
    for (int i = 0; i < events.size() && shared != null; i++) {
      Event event = events.get(i);
      if (event.asciiArray() != shared || event.asciiOffset() < end) {
        shared = null;
      } else {
        end = event.asciiOffset() + event.asciiLength();
        rawBytes += event.asciiLength();
      }
    }
    if (shared != null && end - events.get(0).asciiOffset() - rawBytes > rawBytes / 8 + 4096) {
      shared = null; // the texts are far apart in the body (lines dropped between): copy them
    }
    return shared;
  }

  /**
   * The number of bytes {@link #encode} makes of {@code events} ({@code out}'s and the body's),
   * counted without making them: no text is copied or encoded, only the batch's distinct strings
   * are numbered. For the events as given or with their ASCII bytes known ({@link
   * Event#withAsciiBytes}): the two encode to the same length (a text held as a {@code String} is
   * copied either way, or is the whole body of a batch of one).
   *
   * <p>It walks the format a second time beside {@link #encode}, on purpose: one walk for both,
   * through a sink that writes or counts, made {@code encode} slower (session 39, {@code
   * WalEncodeCpu} on 200k access-log lines, three alternated pairs at load 19-26, median ns an
   * event: ranges of a body 53 / 53 / 57 → 61 / 62 / 61, copied texts with two fields 261 / 280 /
   * 333 → 312 / 362 / 342), the sink's calls not inlined as {@link WalOutput}'s are. {@code
   * WalLengthTest} keeps the two walks equal.
   */
  static long length(List<Event> events) {
    byte[] shared = sharedBody(events);
    WalStrings strings = new WalStrings(events);
    long length = vIntBytes(events.size()) + strings.encodedBytes();
    int bodyStart = shared == null ? 0 : events.get(0).asciiOffset();
    int previousEnd = bodyStart;
    for (int i = 0; i < events.size(); i++) {
      Event event = events.get(i);
      long time = event.timeMicros();
      length += vLongBytes((time >> 63) ^ (time << 1)); // a zlong
      if (shared != null) {
        length += vIntBytes(event.asciiOffset() - previousEnd) + vIntBytes(event.asciiLength());
        previousEnd = event.asciiOffset() + event.asciiLength();
      } else {
        int text =
            event.asciiArray() != null
                ? event.asciiLength()
                : UnicodeUtil.calcUTF16toUTF8Length(event.raw(), 0, event.raw().length());
        length += 1 + vIntBytes(text) + text; // Gap 0, Length, the copied text
      }
      length += vIntBytes(strings.number(0, event.host()));
      length += vIntBytes(strings.number(1, event.source()));
      length += vIntBytes(strings.number(2, event.sourcetype()));
      Map<String, List<String>> fields = event.indexedFields();
      length += vIntBytes(fields.size());
      if (fields instanceof SmallFieldMap small) {
        for (int f = 0; f < small.size(); f++) {
          length += fieldBytes(strings, f, small.name(f), small.values(f));
        }
      } else {
        int position = 0;
        for (Map.Entry<String, List<String>> field : fields.entrySet()) {
          length += fieldBytes(strings, position++, field.getKey(), field.getValue());
        }
      }
    }
    return length + (previousEnd - bodyStart);
  }

  /** The bytes of field {@code position} of an event: its name's number, values' count, values. */
  private static long fieldBytes(
      WalStrings strings, int position, String name, List<String> values) {
    long length = vIntBytes(strings.number(WalStrings.nameSlot(position), name));
    length += vIntBytes(values.size());
    for (int v = 0; v < values.size(); v++) {
      length += WalStrings.stringBytes(values.get(v));
    }
    return length;
  }

  /** The bytes of {@code value} as a vint. */
  static int vIntBytes(int value) {
    int bytes = 1;
    while ((value & ~0x7F) != 0) {
      value >>>= 7;
      bytes++;
    }
    return bytes;
  }

  private static int vLongBytes(long value) {
    int bytes = 1;
    while ((value & ~0x7FL) != 0) {
      value >>>= 7;
      bytes++;
    }
    return bytes;
  }

  private static Encoded encode(List<Event> events, WalOutput reused) throws IOException {
    byte[] shared = sharedBody(events);
    long rawBytes = 0; // when copied: counted as the texts are copied
    for (int i = 0; shared != null && i < events.size(); i++) {
      rawBytes += events.get(i).asciiLength();
    }
    WalStrings strings = new WalStrings(events);
    // about: the first event's field values for every event (a batch's events have the same
    // fields; a map's values walked per event cost more than the encoding), at most FIELD_GUESS
    // bytes an event (a first event with large fields must not size the record for every event:
    // the array grows when the guess is short), and the copied texts
    long fieldGuess = events.isEmpty() ? 0 : Math.min(valueBytes(events.get(0)), FIELD_GUESS);
    long expected = 16 + strings.bytes + events.size() * (12L + fieldGuess);
    for (int i = 0; shared == null && i < events.size(); i++) {
      expected += events.get(i).rawLength(); // at least
    }
    int capacity = (int) Math.min(expected, 1 << 30);
    WalOutput out;
    if (reused != null && reused.bytes.length >= capacity) {
      out = reused;
      out.length = 0;
    } else {
      out = new WalOutput(capacity);
    }
    out.writeVInt(events.size());
    strings.write(out);
    int bodyStart = shared == null ? 0 : events.get(0).asciiOffset();
    int previousEnd = bodyStart;
    List<byte[]> copied = shared == null ? new ArrayList<>(events.size()) : null;
    for (int i = 0; i < events.size(); i++) {
      Event event = events.get(i);
      out.writeZLong(event.timeMicros());
      if (shared != null) {
        out.writeVInt(event.asciiOffset() - previousEnd);
        out.writeVInt(event.asciiLength());
        previousEnd = event.asciiOffset() + event.asciiLength();
      } else {
        byte[] utf8 = utf8(event);
        copied.add(utf8);
        int length = event.asciiArray() != null ? event.asciiLength() : utf8.length;
        out.writeVInt(0);
        out.writeVInt(length);
        rawBytes += length;
      }
      writeNamesAndFields(out, strings, event);
    }
    if (shared == null) {
      for (int i = 0; i < events.size(); i++) {
        Event event = events.get(i);
        if (event.asciiArray() != null) { // the event's own range: copied from it, not held
          out.writeBytes(event.asciiArray(), event.asciiOffset(), event.asciiLength());
        } else {
          byte[] utf8 = copied.get(i);
          out.writeBytes(utf8, 0, utf8.length);
        }
      }
      return new Encoded(out, NO_BODY, 0, 0, rawBytes);
    }
    return new Encoded(out, shared, bodyStart, previousEnd - bodyStart, rawBytes);
  }

  /**
   * Writes an event's {@code Host, Source, Sourcetype} and its fields. Its own method, called once
   * an event, so the JIT compiles it on its own early: inside {@link #encode}'s loop (called once a
   * batch) the C2 compiler compiled the loop by on-stack replacement with all of it inlined, six
   * times in a 2M-line ingest (session 41, JFR's {@code jdk.Compilation}).
   */
  private static void writeNamesAndFields(WalOutput out, WalStrings strings, Event event)
      throws IOException {
    out.writeVInt(strings.number(0, event.host()));
    out.writeVInt(strings.number(1, event.source()));
    out.writeVInt(strings.number(2, event.sourcetype()));
    Map<String, List<String>> fields = event.indexedFields();
    out.writeVInt(fields.size());
    if (fields instanceof SmallFieldMap small) { // indexed: no iterator, no call per step
      for (int f = 0; f < small.size(); f++) {
        writeField(out, strings, f, small.name(f), small.values(f));
      }
    } else {
      int position = 0;
      for (Map.Entry<String, List<String>> field : fields.entrySet()) {
        writeField(out, strings, position++, field.getKey(), field.getValue());
      }
    }
  }

  /**
   * Writes field {@code position} of an event: its name's number, its values' count, its values.
   */
  private static void writeField(
      WalOutput out, WalStrings strings, int position, String name, List<String> values)
      throws IOException {
    out.writeVInt(strings.number(WalStrings.nameSlot(position), name));
    int count = values.size();
    out.writeVInt(count);
    for (int v = 0; v < count; v++) {
      WalOutput.writeString(out, values.get(v));
    }
  }

  /** The most field bytes an event is guessed to take when sizing a record. */
  private static final int FIELD_GUESS = 256;

  /** About the bytes of an event's field values with their lengths and names' numbers. */
  private static long valueBytes(Event event) {
    long sum = 0;
    for (List<String> values : event.indexedFields().values()) {
      sum += 2;
      for (String value : values) {
        sum += 1 + value.length();
      }
    }
    return sum;
  }

  private static final byte[] HELD = new byte[0];

  /**
   * An event's text as its UTF-8 bytes (Lucene's encoding: an unpaired surrogate as U+FFFD); for an
   * event that holds its ASCII range, a marker (its bytes are copied from the range).
   */
  private static byte[] utf8(Event event) {
    if (event.asciiArray() != null) {
      return HELD;
    }
    String raw = event.raw();
    byte[] ascii = AsciiText.bytesOf(raw);
    return ascii != null ? ascii : BytesRef.deepCopyOf(new BytesRef(raw)).bytes;
  }

  /** A decoded record: the sequence number of its first event, and its events. */
  record Batch(long firstSeq, List<Event> events) {}

  /** Decodes a record's payload as a log file of {@code version} wrote it. */
  static Batch decode(byte[] payload, int version) throws IOException {
    return version == 1 ? WalRecordV1.decode(payload) : decode(payload);
  }

  /** Decodes a version-2 record's payload. */
  static Batch decode(byte[] payload) throws IOException {
    ByteArrayDataInput in = new ByteArrayDataInput(payload);
    long firstSeq = in.readVLong();
    int count = in.readVInt();
    String[] strings = new String[in.readVInt()];
    for (int i = 0; i < strings.length; i++) {
      strings[i] = in.readString();
    }
    long[] times = new long[count];
    int[] starts = new int[count];
    int[] lengths = new int[count];
    String[][] names = new String[count][];
    List<Map<String, List<String>>> fields = new ArrayList<>(count);
    long at = 0;
    for (int i = 0; i < count; i++) {
      times[i] = in.readZLong();
      at += in.readVInt();
      starts[i] = Math.toIntExact(at);
      lengths[i] = in.readVInt();
      at += lengths[i];
      names[i] =
          new String[] {strings[in.readVInt()], strings[in.readVInt()], strings[in.readVInt()]};
      int fieldCount = in.readVInt();
      Map<String, List<String>> map = fieldCount == 0 ? Map.of() : new LinkedHashMap<>();
      for (int f = 0; f < fieldCount; f++) {
        String name = strings[in.readVInt()];
        int valueCount = in.readVInt();
        List<String> values = new ArrayList<>(valueCount);
        for (int v = 0; v < valueCount; v++) {
          values.add(in.readString());
        }
        map.put(name, values);
      }
      fields.add(map);
    }
    int body = in.getPosition();
    if (body + at != payload.length) {
      throw new IOException(
          "record's texts take " + at + " bytes, its body has " + (payload.length - body));
    }
    List<Event> events = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String raw = new String(payload, body + starts[i], lengths[i], StandardCharsets.UTF_8);
      events.add(new Event(times[i], raw, names[i][0], names[i][1], names[i][2], fields.get(i)));
    }
    return new Batch(firstSeq, events);
  }
}
