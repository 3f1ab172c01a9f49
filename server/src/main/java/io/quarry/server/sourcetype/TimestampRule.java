package io.quarry.server.sourcetype;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a sourcetype finds an event's time (Splunk's {@code TIME_PREFIX}, {@code TIME_FORMAT}, {@code
 * MAX_TIMESTAMP_LOOKAHEAD}, {@code TZ}).
 *
 * <p>With a prefix, the timestamp starts right after the prefix's first match; without one, at the
 * start of the event. With a format, only that format at that position is tried. Without a format
 * the time is recognised automatically: the {@link #AUTOMATIC common formats} are tried at the
 * start and at every word boundary within the lookahead, and the first that parses wins. What
 * worked is remembered per source (format and position), so a stream pays for the search once and
 * then parses like an explicit format.
 *
 * <p>The prefix is an expression after whose first match the timestamp starts; the lookahead is how
 * many characters after that start the timestamp may extend; the zone applies to times that carry
 * no offset or zone name.
 */
public final class TimestampRule {

  /** Splunk's default lookahead. */
  public static final int DEFAULT_LOOKAHEAD = 128;

  /** Formats tried by automatic recognition, most specific first at each position. */
  static final List<StrptimeFormat> AUTOMATIC =
      List.of(
          StrptimeFormat.compile("%Y-%m-%dT%H:%M:%S%.N%?z"),
          StrptimeFormat.compile("%Y-%m-%d %H:%M:%S%.N%?z"),
          StrptimeFormat.compile("%Y-%m-%d-%H.%M.%S%.N"),
          StrptimeFormat.compile("%Y/%m/%d %H:%M:%S%.N%?z"),
          StrptimeFormat.compile("%Y%m%d-%H:%M:%S:%L"),
          StrptimeFormat.compile("%Y%m%dT%H%M%S%.N%?z"),
          StrptimeFormat.compile("%d/%b/%Y:%H:%M:%S%.N %z"),
          StrptimeFormat.compile("%d/%b/%Y:%H:%M:%S%.N"),
          StrptimeFormat.compile("%d-%b-%Y %H:%M:%S%.N"),
          StrptimeFormat.compile("%a %b %d %H:%M:%S%.N %Y"),
          StrptimeFormat.compile("%a %b %d %H:%M:%S%.N %Z %Y"),
          StrptimeFormat.compile("%a, %d %b %Y %H:%M:%S%?z"),
          StrptimeFormat.compile("%b %d %Y %H:%M:%S%.N"),
          StrptimeFormat.compile("%b %d %H:%M:%S%.N"),
          StrptimeFormat.compile("%m/%d/%Y:%H:%M:%S"),
          StrptimeFormat.compile("%m/%d/%Y %H:%M:%S%.N"),
          StrptimeFormat.compile("%m/%d/%Y %I:%M:%S %p"),
          StrptimeFormat.compile("%y/%m/%d %H:%M:%S%.N"),
          StrptimeFormat.compile("%y%m%d %H%M%S"),
          StrptimeFormat.compile("%m-%d %H:%M:%S%.N"),
          StrptimeFormat.compile("%m.%d %H:%M:%S"),
          StrptimeFormat.compile("%s"));

  /** Sources remembered per rule; past this the memory starts over. */
  private static final int MAX_REMEMBERED_SOURCES = 10_000;

  /** Automatic recognition with the default lookahead, in UTC. */
  public static TimestampRule automatic() {
    return new TimestampRule(Optional.empty(), Optional.empty(), DEFAULT_LOOKAHEAD, ZoneOffset.UTC);
  }

  private final Optional<Pattern> prefix;

  /**
   * The prefix as plain text when its expression is one ({@code \\[}, {@code ^\\[}, {@code time=}):
   * then it is found with {@code indexOf}, not {@code java.util.regex}, on every event. A regex run
   * on every ingested event is costly, and it also leaves the regex engine's JIT profile
   * megamorphic for every search-time {@code rex} in the JVM.
   */
  private final String literalPrefix;

  private final boolean literalAnchored;
  private final Optional<StrptimeFormat> format;
  private final int lookahead;
  private final ZoneId zone;

  /** What automatic recognition found last, per source. */
  private final ConcurrentMap<String, Hint> hints = new ConcurrentHashMap<>();

  public TimestampRule(
      Optional<Pattern> prefix, Optional<StrptimeFormat> format, int lookahead, ZoneId zone) {
    this.prefix = requireNonNull(prefix, "prefix is null");
    String regex = prefix.map(Pattern::pattern).orElse("");
    this.literalAnchored = regex.startsWith("^") && prefix.get().flags() == 0;
    this.literalPrefix =
        prefix.isPresent() && prefix.get().flags() == 0
            ? literal(literalAnchored ? regex.substring(1) : regex)
            : null;
    this.format = requireNonNull(format, "format is null");
    this.zone = requireNonNull(zone, "zone is null");
    if (lookahead < 1) {
      throw new IllegalArgumentException("maxTimestampLookahead must be at least 1");
    }
    this.lookahead = lookahead;
  }

  public Optional<Pattern> prefix() {
    return prefix;
  }

  public Optional<StrptimeFormat> format() {
    return format;
  }

  public int lookahead() {
    return lookahead;
  }

  public ZoneId zone() {
    return zone;
  }

  /**
   * The text a regex matches when it matches only that text (ASCII letters, digits, spaces and
   * backslash-escaped punctuation), else null.
   */
  static String literal(String regex) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < regex.length(); i++) {
      char c = regex.charAt(i);
      if (c == '\\' && i + 1 < regex.length()) {
        char escaped = regex.charAt(++i);
        if (escaped > 127 || Character.isLetterOrDigit(escaped)) {
          return null; // \d, \s, \Q, \x41, back references …
        }
        text.append(escaped);
      } else if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == ' '
          || c == '='
          || c == ':'
          || c == '_'
          || c == '-'
          || c == '/'
          || c == '"'
          || c == '\''
          || c == ','
          || c == '<'
          || c == '>'
          || c == '@'
          || c == '#') {
        text.append(c);
      } else {
        return null; // . [ ] ( ) { } * + ? | ^ $ and anything else
      }
    }
    return text.isEmpty() ? null : text.toString();
  }

  /** What automatic recognition found for one source. */
  private record Hint(StrptimeFormat format, int offset) {}

  /**
   * One thread's scratch, for callers that hold none of their own: without memory, so no thread
   * keeps a rule (and its hints) alive after it was replaced.
   */
  static final ThreadLocal<ParseScratch> SCRATCH =
      ThreadLocal.withInitial(ParseScratch::withoutMemory);

  /**
   * {@link #find} of an ASCII text given as its bytes, {@code text[offset, offset + length)},
   * parsed from the bytes in place: the plain-text prefix is found in the bytes and the format
   * reads them through a reused view, so no {@code String} is made per event. Null when a prefix
   * expression may read the whole text (then the caller makes the {@code String} and calls {@link
   * #find}). Each call parses: only the automatic-recognition hint is kept from one call to the
   * next, as {@link #find} keeps it.
   */
  public OptionalLong findAscii(byte[] text, int offset, int length, String source, Instant now) {
    return findAscii(text, offset, length, source, now, SCRATCH.get());
  }

  /**
   * {@link #findAscii(byte[], int, int, String, Instant)} with the caller's scratch, which (made
   * with {@link ParseScratch#ParseScratch()}) also remembers the last timestamp parsed ({@link
   * TimestampMemo}): a text the same as the last one at its place is answered without a parse, with
   * what the parse would give.
   */
  public OptionalLong findAscii(
      byte[] text, int offset, int length, String source, Instant now, ParseScratch scratch) {
    int start = 0;
    if (literalPrefix != null) {
      int at = asciiPrefixAt(text, offset, length);
      if (at < 0) {
        return OptionalLong.empty();
      }
      start = at + literalPrefix.length();
    } else if (prefix.isPresent()) {
      return null;
    }
    int limit = (int) Math.min(length, (long) start + lookahead);
    // the view ends at the limit, as a String of the characters read would
    scratch.view.reset(text, offset, limit);
    long micros =
        format.isPresent()
            ? remembered(format.get(), null, text, offset, start, limit, scratch, now)
            : recogniseAscii(text, offset, source, start, limit, scratch, now);
    return micros == Long.MIN_VALUE ? OptionalLong.empty() : OptionalLong.of(micros);
  }

  /**
   * The instant {@code format} reads at {@code at} of the scratch's view over {@code text[offset,
   * ...)}, or {@link Long#MIN_VALUE}: from the scratch's memory when it holds this very parse, else
   * parsed (and remembered when it gives one and the scratch has a memory).
   */
  private long remembered(
      StrptimeFormat format,
      Hint hint,
      byte[] text,
      int offset,
      int at,
      int limit,
      ParseScratch scratch,
      Instant now) {
    TimestampMemo memo = scratch.timestamps;
    if (memo != null) {
      long micros = memo.recall(this, hint, text, offset + at, limit - at, now);
      if (micros != TimestampMemo.MISS) {
        return micros;
      }
    }
    int end = format.parse(scratch.view, at, limit, scratch.parsed);
    if (end < 0) {
      return Long.MIN_VALUE;
    }
    long micros = format.toMicros(scratch.parsed, zone, now);
    if (micros != Long.MIN_VALUE && memo != null) {
      memo.remember(this, hint, text, offset + at, limit - at, end - at, now, micros);
    }
    return micros;
  }

  /**
   * {@link #recognise} over the scratch's view: the source's hint through {@link #remembered}, the
   * search as {@link #recognise} does it.
   */
  private long recogniseAscii(
      byte[] text,
      int offset,
      String source,
      int start,
      int limit,
      ParseScratch scratch,
      Instant now) {
    Hint hint = hints.get(source);
    if (hint != null) {
      long micros =
          remembered(hint.format(), hint, text, offset, start + hint.offset(), limit, scratch, now);
      if (micros != Long.MIN_VALUE) {
        return micros;
      }
    }
    OptionalLong found = search(scratch.view, source, start, limit, scratch.parsed, now);
    return found.isPresent() ? found.getAsLong() : Long.MIN_VALUE;
  }

  /** Where the literal prefix first is in the ASCII text, or -1. */
  private int asciiPrefixAt(byte[] text, int offset, int length) {
    if (literalAnchored) {
      return startsWith(text, offset, length, 0) ? 0 : -1;
    }
    byte first = (byte) literalPrefix.charAt(0); // a non-ASCII prefix never matches below
    for (int i = 0, last = length - literalPrefix.length(); i <= last; i++) {
      if (text[offset + i] == first && startsWith(text, offset, length, i)) {
        return i;
      }
    }
    return -1;
  }

  /** Whether the literal prefix is at {@code at} of the text (a non-ASCII prefix never is). */
  private boolean startsWith(byte[] text, int offset, int length, int at) {
    if (at + literalPrefix.length() > length) {
      return false;
    }
    for (int i = 0; i < literalPrefix.length(); i++) {
      if (text[offset + at + i] != literalPrefix.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** The event's time in epoch microseconds, if found. */
  public OptionalLong find(String event, String source, Instant now) {
    int start = 0;
    if (literalPrefix != null) {
      int at =
          literalAnchored
              ? (event.startsWith(literalPrefix) ? 0 : -1)
              : event.indexOf(literalPrefix);
      if (at < 0) {
        return OptionalLong.empty();
      }
      start = at + literalPrefix.length();
    } else if (prefix.isPresent()) {
      Matcher matcher = prefix.get().matcher(event);
      if (!matcher.find()) {
        return OptionalLong.empty();
      }
      start = matcher.end();
    }
    int limit = (int) Math.min(event.length(), (long) start + lookahead);
    return parseFrom(event, source, start, limit, now);
  }

  /** The time at {@code start} of the text, read no further than {@code limit}. */
  private OptionalLong parseFrom(
      CharSequence event, String source, int start, int limit, Instant now) {
    StrptimeFormat.Parsed parsed = SCRATCH.get().parsed;
    if (format.isPresent()) {
      return at(format.get(), event, start, limit, parsed, now);
    }
    return recognise(event, source, start, limit, parsed, now);
  }

  /**
   * The event's timestamp as its text writes it: the local date and time, and the zone offset in
   * minutes when the text names one (else null: the rule's zone applies, Splunk's "local"); null
   * when no timestamp is found. Splunk's {@code date_*} fields are these.
   */
  public LocalStamp findLocal(String event, String source, Instant now) {
    OptionalLong micros = find(event, source, now);
    if (micros.isEmpty()) {
      return null;
    }
    StrptimeFormat.Parsed parsed = SCRATCH.get().parsed; // the parse find() answered with
    ZoneId at = zone;
    Integer offsetMinutes = null;
    if (parsed.epochSeconds == Long.MIN_VALUE && parsed.offsetSeconds != Integer.MIN_VALUE) {
      at = java.time.ZoneOffset.ofTotalSeconds(parsed.offsetSeconds);
      offsetMinutes = parsed.offsetSeconds / 60;
    } else if (parsed.epochSeconds == Long.MIN_VALUE && parsed.zone != null) {
      at = parsed.zone;
      Instant instant = Instant.ofEpochSecond(Math.floorDiv(micros.getAsLong(), 1_000_000L));
      offsetMinutes = parsed.zone.getRules().getOffset(instant).getTotalSeconds() / 60;
    }
    long seconds = Math.floorDiv(micros.getAsLong(), 1_000_000L);
    return new LocalStamp(
        java.time.LocalDateTime.ofInstant(Instant.ofEpochSecond(seconds), at), offsetMinutes);
  }

  /**
   * A timestamp as written: local date and time, and its zone's offset in minutes (null when the
   * text names no zone).
   */
  public record LocalStamp(java.time.LocalDateTime time, Integer offsetMinutes) {}

  private OptionalLong at(
      StrptimeFormat format,
      CharSequence event,
      int at,
      int limit,
      StrptimeFormat.Parsed parsed,
      Instant now) {
    if (format.parse(event, at, limit, parsed) < 0) {
      return OptionalLong.empty();
    }
    long micros = format.toMicros(parsed, zone, now);
    return micros == Long.MIN_VALUE ? OptionalLong.empty() : OptionalLong.of(micros);
  }

  private OptionalLong recognise(
      CharSequence event,
      String source,
      int start,
      int limit,
      StrptimeFormat.Parsed parsed,
      Instant now) {
    Hint hint = hints.get(source);
    if (hint != null) {
      OptionalLong time = at(hint.format(), event, start + hint.offset(), limit, parsed, now);
      if (time.isPresent()) {
        return time;
      }
    }
    return search(event, source, start, limit, parsed, now);
  }

  /** The first common format at a word start that parses; remembered as the source's hint. */
  private OptionalLong search(
      CharSequence event,
      String source,
      int start,
      int limit,
      StrptimeFormat.Parsed parsed,
      Instant now) {
    for (int at = start; at < limit; at++) {
      if (!isCandidateStart(event, at, start)) {
        continue;
      }
      for (StrptimeFormat candidate : AUTOMATIC) {
        OptionalLong time = at(candidate, event, at, limit, parsed, now);
        if (time.isPresent()) {
          if (hints.size() >= MAX_REMEMBERED_SOURCES) {
            hints.clear();
          }
          hints.put(source, new Hint(candidate, at - start));
          return time;
        }
      }
    }
    return OptionalLong.empty();
  }

  /** A timestamp may start at a letter or digit that begins a word. */
  private static boolean isCandidateStart(CharSequence event, int at, int start) {
    char c = event.charAt(at);
    if (!Character.isLetterOrDigit(c)) {
      return false;
    }
    return at == start || !Character.isLetterOrDigit(event.charAt(at - 1));
  }
}
