package io.quarry.server.ingest;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.Event;
import io.quarry.server.sourcetype.ParseScratch;
import io.quarry.server.sourcetype.Sourcetype;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a raw stream into events by its sourcetype's rules: break it into lines (at line ends, or
 * where the sourcetype's {@code lineBreaker} group matches), merge lines into multi-line events
 * when the sourcetype has {@code breakOnlyBefore}, cut events longer than {@code truncate}, run the
 * index-time extractions and find each event's time.
 *
 * <p>An event whose time cannot be found gets the receive time and the index-time field {@value
 * #TIMESTAMP_MISSING}{@code =true}, so such events are kept and can be found ({@code
 * timestamp_missing=true | stats count by source}). Blank events are skipped.
 */
public final class EventBreaker {
  /** The marker field of events stored with their receive time because none was found. */
  public static final String TIMESTAMP_MISSING = "timestamp_missing";

  /**
   * The events of one stream, and how many were cut or lacked a timestamp. An event of an ASCII
   * line holds its range of the body ({@link Event#ofAscii}): the body must not change while the
   * events are held (the HEC routes and {@code quarry ingest} hand the breaker an array of their
   * own, made for the request and dropped with it).
   */
  public record Result(List<Event> events, int truncated, int timestampMissing) {}

  private final Sourcetype sourcetype;
  private final String host;
  private final String source;
  private final Instant now;

  public EventBreaker(Sourcetype sourcetype, String host, String source, Instant now) {
    this.sourcetype = requireNonNull(sourcetype, "sourcetype is null");
    this.host = requireNonNull(host, "host is null");
    this.source = requireNonNull(source, "source is null");
    this.now = requireNonNull(now, "now is null");
  }

  /**
   * Breaks a stream of UTF-8 bytes (invalid sequences read as U+FFFD, as Java decodes them). The
   * events of ASCII lines hold ranges of {@code body}, not copies: the caller hands over an array
   * nothing writes to again.
   */
  public Result breakEvents(byte[] body) {
    return breakEvents(body, 0, body.length);
  }

  /** Breaks {@code body[offset, offset + length)}, as {@link #breakEvents(byte[])} does. */
  public Result breakEvents(byte[] body, int offset, int length) {
    Collector collector = new Collector();
    if (sourcetype.lineBreaker().isPresent()) {
      // the breaker is a regex over characters: the one place the whole body becomes a string
      forEachLine(new String(body, offset, length, UTF_8), lineConsumer(collector));
    } else if (sourcetype.breakOnlyBefore().isPresent()) {
      Merger merger = new Merger(sourcetype.breakOnlyBefore().get(), collector);
      forEachLine(
          body,
          offset,
          offset + length,
          (bytes, start, end, ascii) -> merger.line(text(bytes, start, end, ascii)));
      merger.end();
    } else {
      forEachLine(body, offset, offset + length, collector::event);
    }
    return collector.result();
  }

  private LineConsumer lineConsumer(Collector collector) {
    if (sourcetype.breakOnlyBefore().isEmpty()) {
      return collector::event;
    }
    return new Merger(sourcetype.breakOnlyBefore().get(), collector);
  }

  private interface LineConsumer {
    void line(String line);

    default void end() {}
  }

  /** A line of the body, {@code bytes[start, end)}, its line end left out. */
  private interface ByteLineConsumer {
    void line(byte[] bytes, int start, int end, boolean ascii);
  }

  /** Lines at line feeds, a carriage return before one (or at the very end) left out. */
  private static void forEachLine(byte[] body, int from, int limit, ByteLineConsumer consumer) {
    int start = from;
    while (start < limit) {
      long line = LineScan.next(body, start, limit);
      int end = LineScan.end(line);
      int stop = end > start && body[end - 1] == '\r' ? end - 1 : end;
      consumer.line(body, start, stop, LineScan.ascii(line));
      start = end + 1;
    }
  }

  /** The text of {@code bytes[start, end)}: one byte a character when ASCII, else UTF-8. */
  private static String text(byte[] bytes, int start, int end, boolean ascii) {
    return new String(bytes, start, end - start, ascii ? ISO_8859_1 : UTF_8);
  }

  /** Lines where the sourcetype's {@code lineBreaker} group matches (an empty match is none). */
  private void forEachLine(String text, LineConsumer consumer) {
    Matcher breaker = sourcetype.lineBreaker().get().matcher(text);
    int start = 0;
    while (breaker.find()) {
      if (breaker.end(1) == breaker.start(1)) {
        continue; // an empty breaker would split between every character
      }
      consumer.line(text.substring(start, breaker.start(1)));
      start = breaker.end(1);
    }
    consumer.line(text.substring(start));
    consumer.end();
  }

  /** Joins lines into events that start at a line where the expression is found. */
  private final class Merger implements LineConsumer {
    private final Pattern startsEvent;
    private final Collector collector;
    private final StringBuilder event = new StringBuilder();
    private int lines;

    Merger(Pattern startsEvent, Collector collector) {
      this.startsEvent = startsEvent;
      this.collector = collector;
    }

    @Override
    public void line(String line) {
      boolean starts = lines == 0 || lines >= sourcetype.maxLines();
      if (!starts && !line.isBlank() && startsEvent.matcher(line).find()) {
        starts = true;
      }
      if (starts && lines > 0) {
        flush();
      }
      if (lines > 0) {
        event.append('\n');
      }
      event.append(line);
      lines++;
    }

    @Override
    public void end() {
      if (lines > 0) {
        flush();
      }
    }

    private void flush() {
      collector.event(event.toString());
      event.setLength(0);
      lines = 0;
    }
  }

  /** Makes stored events of the raw texts. */
  private final class Collector {
    private final List<Event> events = new ArrayList<>();
    private final long receiveTime = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    // the parse state of this run of events, held here so no event looks a thread-local up; it
    // remembers the last timestamp, which the next line mostly repeats
    private final ParseScratch scratch = new ParseScratch();
    private int truncated;
    private int timestampMissing;

    /**
     * An event of one line of the body: an ASCII line's event holds its range of the body, no copy
     * (one byte a character, so a cut at {@code truncate} bytes is a cut at as many characters),
     * and a {@code String} of it is made only when the sourcetype's rules need one; any other line
     * is decoded and goes the way of a text.
     */
    void event(byte[] bytes, int start, int end, boolean ascii) {
      if (!ascii) {
        event(text(bytes, start, end, false));
        return;
      }
      while (end > start && (bytes[end - 1] == '\n' || bytes[end - 1] == '\r')) {
        end--;
      }
      int first = start;
      while (first < end && isAsciiWhitespace(bytes[first])) {
        first++;
      }
      if (first == end) {
        return; // blank
      }
      int maxBytes = sourcetype.truncate();
      if (maxBytes > 0 && end - start > maxBytes) {
        truncated++;
        end = start + maxBytes;
      }
      int length = end - start;
      Map<String, List<String>> fields = sourcetype.asciiIndexFields(bytes, start, length, scratch);
      String text = null; // made only where the rules read the whole text
      if (fields == null) {
        text = new String(bytes, start, length, ISO_8859_1);
        fields = sourcetype.indexFields(text);
      }
      OptionalLong time =
          text == null
              ? sourcetype.asciiTimestamp(bytes, start, length, source, now, scratch)
              : null;
      if (time == null) {
        if (text == null) {
          text = new String(bytes, start, length, ISO_8859_1);
        }
        time = sourcetype.timestamp(text, source, fields, now);
      }
      fields = marked(fields, time);
      events.add(
          Event.ofAscii(
              time.orElse(receiveTime),
              bytes,
              start,
              length,
              text,
              host,
              source,
              sourcetype.name(),
              fields));
    }

    void event(String text) {
      String raw = stripTrailingLineEnds(text);
      if (raw.isBlank()) {
        return;
      }
      if (sourcetype.truncate() > 0) {
        String cut = truncate(raw, sourcetype.truncate());
        if (cut.length() != raw.length()) {
          truncated++;
          raw = cut;
        }
      }
      Map<String, List<String>> fields = sourcetype.indexFields(raw);
      OptionalLong time = sourcetype.timestamp(raw, source, fields, now);
      fields = marked(fields, time);
      events.add(new Event(time.orElse(receiveTime), raw, host, source, sourcetype.name(), fields));
    }

    /** The fields, with {@value #TIMESTAMP_MISSING} added when no time was found (counted). */
    private Map<String, List<String>> marked(Map<String, List<String>> fields, OptionalLong time) {
      if (time.isPresent()) {
        return fields;
      }
      timestampMissing++;
      Map<String, List<String>> marked = new HashMap<>(fields);
      marked.put(TIMESTAMP_MISSING, List.of("true"));
      return marked;
    }

    Result result() {
      return new Result(events, truncated, timestampMissing);
    }
  }

  /**
   * Whether {@code bytes} hold only ASCII white space (as {@link String#isBlank} reads it), without
   * decoding them.
   */
  public static boolean isBlank(byte[] bytes) {
    for (byte b : bytes) {
      if (!isAsciiWhitespace(b)) {
        return false;
      }
    }
    return true;
  }

  /** Whether an ASCII byte is white space as {@link String#isBlank} reads it. */
  private static boolean isAsciiWhitespace(byte b) {
    return b == ' ' || (b >= 0x09 && b <= 0x0D) || (b >= 0x1C && b <= 0x1F);
  }

  private static String stripTrailingLineEnds(String text) {
    int end = text.length();
    while (end > 0 && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
      end--;
    }
    return end == text.length() ? text : text.substring(0, end);
  }

  /** The longest prefix of {@code text} of at most {@code maxBytes} UTF-8 bytes. */
  static String truncate(String text, int maxBytes) {
    if ((long) text.length() * 3 <= maxBytes) {
      return text;
    }
    int bytes = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      int size;
      if (c < 0x80) {
        size = 1;
      } else if (c < 0x800) {
        size = 2;
      } else if (Character.isHighSurrogate(c)) {
        size = 4;
      } else {
        size = 3;
      }
      if (bytes + size > maxBytes) {
        return text.substring(0, i);
      }
      bytes += size;
      if (size == 4) {
        i++;
      }
    }
    return text;
  }
}
