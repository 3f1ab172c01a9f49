package io.quarry.codecs.wal;

import io.quarry.codecs.store.AsciiText;
import io.quarry.codecs.store.Event;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.store.ByteArrayDataInput;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.store.DataOutput;
import org.apache.lucene.util.BytesRef;

/**
 * Serializes a batch of events for the log: {@code FirstSeq (vlong), Count (vint), Event^Count}; an
 * event is {@code Time (zlong), Raw, Host, Source, Sourcetype (strings), FieldCount (vint), <Name
 * (string), ValueCount (vint), Value (string)^ValueCount>^FieldCount}.
 */
final class WalCodec {
  private WalCodec() {}

  /**
   * The events part of a record, {@code Count (vint), Event^Count}; {@code rawBytes[0]} receives
   * the UTF-8 length of their raw texts. A record is {@code FirstSeq (vlong)} followed by this.
   */
  static Output encodeEvents(List<Event> events, long[] rawBytes) throws IOException {
    return encodeEvents(events, rawBytes, null);
  }

  /**
   * Outputs given back for another batch ({@link #encodeEventsPooled}, {@link #giveBack}): an
   * ingest thread encodes a batch and gives the array back once it is appended, so a request-sized
   * array (megabytes) is neither allocated nor zeroed per batch. Bounded in count and size, so what
   * is kept does not grow with the number of threads that ever ingested.
   */
  private static final java.util.concurrent.ArrayBlockingQueue<Output> POOL =
      new java.util.concurrent.ArrayBlockingQueue<>(4);

  /** The largest array kept for another batch. */
  static final int KEPT_BYTES = 16 << 20;

  /**
   * {@link #encodeEvents(List, long[])} into an output taken from the pool when one is there; the
   * caller gives it back ({@link #giveBack}) once done with the bytes.
   */
  static Output encodeEventsPooled(List<Event> events, long[] rawBytes) throws IOException {
    Output pooled = POOL.poll();
    Output out = encodeEvents(events, rawBytes, pooled);
    if (pooled != null && out != pooled) {
      giveBack(pooled); // too small for this batch: still good for smaller ones
    }
    return out;
  }

  /** Keeps {@code out} for another batch when the pool has room and the array is not too large. */
  static void giveBack(Output out) {
    if (out.bytes.length <= KEPT_BYTES) {
      POOL.offer(out);
    }
  }

  private static Output encodeEvents(List<Event> events, long[] rawBytes, Output reused)
      throws IOException {
    // the other fields' bytes, about: the first event's, for every event (a batch's events share
    // host, source, sourcetype and field names); guessing short made every access-log batch grow
    // once, copying the whole array
    long expected = 5 + (long) events.size() * (events.isEmpty() ? 0 : otherBytes(events.get(0)));
    for (int i = 0; i < events.size(); i++) {
      expected += events.get(i).rawLength(); // at least
    }
    int capacity = (int) Math.min(expected, 1 << 30);
    Output out;
    if (reused != null && reused.bytes.length >= capacity) {
      out = reused;
      out.clear();
    } else {
      out = new Output(capacity);
    }
    out.writeVInt(events.size());
    long raw = 0;
    for (int i = 0; i < events.size(); i++) {
      Event event = events.get(i);
      out.writeZLong(event.timeMicros());
      byte[] ascii = event.asciiArray();
      if (ascii != null) { // writeString's bytes, straight from the event's range (the body's)
        int length = event.asciiLength();
        out.writeVInt(length);
        out.writeBytes(ascii, event.asciiOffset(), length);
        raw += length;
      } else {
        raw += writeString(out, event.raw());
      }
      out.writeRepeated(0, event.host());
      out.writeRepeated(1, event.source());
      out.writeRepeated(2, event.sourcetype());
      out.writeVInt(event.indexedFields().size());
      int position = 0;
      for (Map.Entry<String, List<String>> field : event.indexedFields().entrySet()) {
        if (position < Output.NAME_SLOTS) {
          out.writeRepeated(3 + position++, field.getKey());
        } else {
          writeString(out, field.getKey());
        }
        out.writeVInt(field.getValue().size());
        for (String value : field.getValue()) {
          writeString(out, value);
        }
      }
    }
    rawBytes[0] = raw;
    return out;
  }

  /** About the bytes of an event's strings but its raw text, as ASCII, with their lengths. */
  private static int otherBytes(Event event) {
    int bytes = 16 + event.host().length() + event.source().length() + event.sourcetype().length();
    for (Map.Entry<String, List<String>> field : event.indexedFields().entrySet()) {
      bytes += 2 + field.getKey().length();
      for (String value : field.getValue()) {
        bytes += 1 + value.length();
      }
    }
    return bytes;
  }

  /**
   * The encoded events: one growable array, sized from the raw texts up front, so the bytes are
   * copied once (a {@link ByteBuffersDataOutput}'s blocks would be copied again into one array).
   */
  static final class Output extends DataOutput {
    /** Field names remembered by position (host, source and sourcetype take three more slots). */
    static final int NAME_SLOTS = 8;

    byte[] bytes;
    int length;
    // per slot: the string last written there (compared by identity) and where its bytes are
    private final String[] lastText = new String[3 + NAME_SLOTS];
    private final int[] lastStart = new int[3 + NAME_SLOTS];
    private final int[] lastEnd = new int[3 + NAME_SLOTS];

    Output(int capacity) {
      bytes = new byte[Math.max(16, capacity)];
    }

    @Override
    public void writeByte(byte b) {
      if (length == bytes.length) {
        grow(length + 1);
      }
      bytes[length++] = b;
    }

    @Override
    public void writeBytes(byte[] b, int offset, int count) {
      if (length + count > bytes.length) {
        grow(length + count);
      }
      System.arraycopy(b, offset, bytes, length, count);
      length += count;
    }

    /**
     * Writes a short string (at most {@link #SHORT_STRING} chars) as its length and its bytes when
     * every char is ASCII, in one pass straight into the array; returns false, having written
     * nothing, at the first char that is not.
     */
    boolean writeShortAscii(String text) {
      int textLength = text.length();
      if (length + 1 + textLength > bytes.length) {
        grow(length + 1 + textLength);
      }
      byte[] array = bytes;
      int at = length + 1; // a length up to 64 is one vint byte
      for (int i = 0; i < textLength; i++) {
        char c = text.charAt(i);
        if (c >= 0x80) {
          return false;
        }
        array[at + i] = (byte) c;
      }
      array[length] = (byte) textLength;
      length = at + textLength;
      return true;
    }

    /**
     * Writes {@code text} as {@link WalCodec#writeString} does, copying the bytes written for it
     * last time at this slot when it is the very same {@code String}: a batch's events name the
     * same host, source, sourcetype and field names by the same instances, so the log copies ~80
     * bytes an event instead of checking and copying them char by char.
     */
    void writeRepeated(int slot, String text) throws IOException {
      if (lastText[slot] == text) {
        int start = lastStart[slot];
        int count = lastEnd[slot] - start;
        if (length + count > bytes.length) {
          grow(length + count);
        }
        System.arraycopy(bytes, start, bytes, length, count);
        length += count;
        return;
      }
      int start = length;
      WalCodec.writeString(this, text);
      lastText[slot] = text;
      lastStart[slot] = start;
      lastEnd[slot] = length;
    }

    /** Empties the output for another batch, keeping its array (nothing written is repeated). */
    void clear() {
      length = 0;
      Arrays.fill(lastText, null);
    }

    /** Doubles the array (at least to {@code needed}): a batch of large texts copies it rarely. */
    private void grow(int needed) {
      bytes =
          Arrays.copyOf(
              bytes, Math.max(needed, (int) Math.min(Integer.MAX_VALUE - 8, 2L * bytes.length)));
    }
  }

  /** Strings up to this long are checked and copied char by char, without an encoder's arrays. */
  private static final int SHORT_STRING = 64;

  /**
   * Writes {@code text} as {@link ByteBuffersDataOutput#writeString} does (its UTF-8 length, then
   * the bytes; an unpaired surrogate as U+FFFD), through the JDK's encoder where that gives the
   * same bytes: Lucene's encoder goes char by char, the JDK's copies an ASCII string at memory
   * speed (a fifth of the log's encoding in an ingest profile). The JDK writes an unpaired
   * surrogate as {@code ?}, one byte, so a one-byte-per-char result is taken only when it reads
   * back as the very text ({@link AsciiText#bytesOf}). A short ASCII string (a host, a field's name
   * or value) is written char by char: cheaper than the encoder's two arrays.
   *
   * @return the number of UTF-8 bytes written
   */
  static int writeString(DataOutput out, String text) throws IOException {
    int length = text.length();
    if (length <= SHORT_STRING) {
      if (out instanceof Output array) {
        if (array.writeShortAscii(text)) {
          return length;
        }
      } else {
        int ascii = 0;
        while (ascii < length && text.charAt(ascii) < 0x80) {
          ascii++;
        }
        if (ascii == length) {
          out.writeVInt(length);
          for (int i = 0; i < length; i++) {
            out.writeByte((byte) text.charAt(i));
          }
          return length;
        }
      }
    }
    byte[] utf8 = AsciiText.bytesOf(text);
    if (utf8 != null) {
      out.writeVInt(utf8.length);
      out.writeBytes(utf8, utf8.length);
      return utf8.length;
    }
    BytesRef lucene = new BytesRef(text);
    out.writeVInt(lucene.length);
    out.writeBytes(lucene.bytes, lucene.offset, lucene.length);
    return lucene.length;
  }

  /** A decoded record: the sequence number of its first event, and its events. */
  record Batch(long firstSeq, List<Event> events) {}

  static Batch decode(byte[] payload) throws IOException {
    ByteArrayDataInput in = new ByteArrayDataInput(payload);
    long firstSeq = in.readVLong();
    int count = in.readVInt();
    List<Event> events = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      long time = in.readZLong();
      String raw = in.readString();
      String host = in.readString();
      String source = in.readString();
      String sourcetype = in.readString();
      int fieldCount = in.readVInt();
      Map<String, List<String>> fields = new LinkedHashMap<>();
      for (int f = 0; f < fieldCount; f++) {
        String name = in.readString();
        int valueCount = in.readVInt();
        List<String> values = new ArrayList<>(valueCount);
        for (int v = 0; v < valueCount; v++) {
          values.add(in.readString());
        }
        fields.put(name, values);
      }
      events.add(new Event(time, raw, host, source, sourcetype, fields));
    }
    if (in.getPosition() != payload.length) {
      throw new IOException(
          "record has " + (payload.length - in.getPosition()) + " trailing bytes");
    }
    return new Batch(firstSeq, events);
  }
}
