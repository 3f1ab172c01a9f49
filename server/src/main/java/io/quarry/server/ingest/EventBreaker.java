package io.quarry.server.ingest;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.Event;
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

  /** The events of one stream, and how many were cut or lacked a timestamp. */
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

  public Result breakEvents(String text) {
    Collector collector = new Collector();
    if (sourcetype.breakOnlyBefore().isPresent()) {
      forEachLine(text, new Merger(sourcetype.breakOnlyBefore().get(), collector));
    } else {
      forEachLine(text, collector::event);
    }
    return collector.result();
  }

  private interface LineConsumer {
    void line(String line);

    default void end() {}
  }

  private void forEachLine(String text, LineConsumer consumer) {
    if (sourcetype.lineBreaker().isPresent()) {
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
    } else {
      int start = 0;
      int length = text.length();
      while (start < length) {
        int end = text.indexOf('\n', start);
        if (end < 0) {
          end = length;
        }
        int stop = end > start && text.charAt(end - 1) == '\r' ? end - 1 : end;
        consumer.line(text.substring(start, stop));
        start = end + 1;
      }
    }
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
    private int truncated;
    private int timestampMissing;

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
      if (time.isEmpty()) {
        timestampMissing++;
        Map<String, List<String>> marked = new HashMap<>(fields);
        marked.put(TIMESTAMP_MISSING, List.of("true"));
        fields = marked;
      }
      events.add(new Event(time.orElse(receiveTime), raw, host, source, sourcetype.name(), fields));
    }

    Result result() {
      return new Result(events, truncated, timestampMissing);
    }
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
