package io.quarry.codecs.store;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One event to store or as read back: its time, its text ({@code _raw}), host, source, sourcetype
 * and index-time fields. Equal by those (the text compared as characters).
 *
 * <p>The text is held as a {@code String} or as a range of ASCII bytes ({@link #ofAscii}: one byte
 * a character, most often a range of the request body the event was broken from), so an ASCII event
 * goes from the body to the log and the block without a copy of its own; {@link #raw} makes the
 * {@code String} only when asked (and keeps it). <b>The range is the caller's array, not a
 * copy:</b> whoever makes an event of a range keeps that array unchanged for as long as the event
 * is held (the ingest's request body is a {@code byte[]} of its own, never reused: see {@code
 * EventBreaker}).
 */
public final class Event {
  private final long timeMicros;
  private final String host;
  private final String source;
  private final String sourcetype;
  private final Map<String, List<String>> indexedFields;
  private String raw; // made from the range on first ask when null
  private final byte[] ascii; // the text's bytes when known to be ASCII, else null
  private final int asciiOffset;
  private final int asciiLength;

  /**
   * An event whose text is a {@code String}.
   *
   * @param timeMicros event time, epoch microseconds
   * @param raw the event text
   * @param indexedFields index-time fields, each with one or more values (held as an immutable
   *     copy: a few in the given order, {@link SmallFieldMap}; more as {@code Map.copyOf} holds
   *     them)
   */
  public Event(
      long timeMicros,
      String raw,
      String host,
      String source,
      String sourcetype,
      Map<String, List<String>> indexedFields) {
    this(
        timeMicros,
        requireNonNull(raw, "raw is null"),
        null,
        0,
        0,
        host,
        source,
        sourcetype,
        SmallFieldMap.copyOf(requireNonNull(indexedFields, "indexedFields is null")));
  }

  private Event(
      long timeMicros,
      String raw,
      byte[] ascii,
      int asciiOffset,
      int asciiLength,
      String host,
      String source,
      String sourcetype,
      Map<String, List<String>> indexedFields) {
    this.timeMicros = timeMicros;
    this.raw = raw;
    this.ascii = ascii;
    this.asciiOffset = asciiOffset;
    this.asciiLength = asciiLength;
    this.host = requireNonNull(host, "host is null");
    this.source = requireNonNull(source, "source is null");
    this.sourcetype = requireNonNull(sourcetype, "sourcetype is null");
    this.indexedFields = indexedFields;
  }

  /**
   * An event whose text is {@code bytes[offset, offset + length)}, every byte below 0x80 (not
   * checked here: the breaker that finds the range knows it, and the block writer checks the bytes
   * it records as ASCII). The array is held, not copied.
   *
   * @param text the text when the caller has made it already (one character a byte of the range),
   *     else null: then made on the first {@link #raw}
   */
  public static Event ofAscii(
      long timeMicros,
      byte[] bytes,
      int offset,
      int length,
      String text,
      String host,
      String source,
      String sourcetype,
      Map<String, List<String>> indexedFields) {
    requireNonNull(bytes, "bytes is null");
    Objects.checkFromIndexSize(offset, length, bytes.length);
    assert text == null || text.length() == length : "text and range differ";
    return new Event(
        timeMicros,
        text,
        bytes,
        offset,
        length,
        host,
        source,
        sourcetype,
        SmallFieldMap.copyOf(requireNonNull(indexedFields, "indexedFields is null")));
  }

  /**
   * This event with its text's ASCII bytes known when the text is ASCII (encoded once here when it
   * was a {@code String}); itself when they are known already or the text is not ASCII.
   */
  public Event withAsciiBytes() {
    if (ascii != null) {
      return this;
    }
    byte[] bytes = AsciiText.bytesOf(raw);
    if (bytes == null) {
      return this;
    }
    return new Event(
        timeMicros, raw, bytes, 0, bytes.length, host, source, sourcetype, indexedFields);
  }

  /** This event with other index-time fields, its text held as it is. */
  public Event withIndexedFields(Map<String, List<String>> fields) {
    return new Event(
        timeMicros,
        raw,
        ascii,
        asciiOffset,
        asciiLength,
        host,
        source,
        sourcetype,
        SmallFieldMap.copyOf(requireNonNull(fields, "fields is null")));
  }

  public long timeMicros() {
    return timeMicros;
  }

  /** The event text (made from the ASCII range on the first ask, then kept). */
  public String raw() {
    String text = raw;
    if (text == null) {
      text = new String(ascii, asciiOffset, asciiLength, ISO_8859_1);
      raw = text; // a benign race: every thread makes the same text
    }
    return text;
  }

  /**
   * The array holding the text's ASCII bytes (one a character, at {@link #asciiOffset} for {@link
   * #asciiLength}), read only; null when they are not known (a text that is not ASCII, or one made
   * as a {@code String}: {@link #withAsciiBytes}).
   */
  public byte[] asciiArray() {
    return ascii;
  }

  public int asciiOffset() {
    return asciiOffset;
  }

  public int asciiLength() {
    return asciiLength;
  }

  /** The text's length in characters (without making the {@code String}). */
  public int rawLength() {
    return raw != null ? raw.length() : asciiLength;
  }

  public String host() {
    return host;
  }

  public String source() {
    return source;
  }

  public String sourcetype() {
    return sourcetype;
  }

  public Map<String, List<String>> indexedFields() {
    return indexedFields;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Event other
        && timeMicros == other.timeMicros
        && raw().equals(other.raw())
        && host.equals(other.host)
        && source.equals(other.source)
        && sourcetype.equals(other.sourcetype)
        && indexedFields.equals(other.indexedFields);
  }

  @Override
  public int hashCode() {
    return Objects.hash(timeMicros, raw(), host, source, sourcetype, indexedFields);
  }

  @Override
  public String toString() {
    return "Event[timeMicros="
        + timeMicros
        + ", raw="
        + raw()
        + ", host="
        + host
        + ", source="
        + source
        + ", sourcetype="
        + sourcetype
        + ", indexedFields="
        + indexedFields
        + "]";
  }
}
