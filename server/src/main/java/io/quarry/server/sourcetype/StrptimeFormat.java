package io.quarry.server.sourcetype;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * A strptime-style time format ({@code %Y-%m-%d %H:%M:%S,%3N}), compiled once into a list of
 * elements ({@link StrptimeDirectives}) and matched by hand at a given position ({@link
 * StrptimeMatch}): no regular expression and no allocation per event on the usual path.
 *
 * <p>Directives: {@code %Y} year (4 digits), {@code %y} year of the century (2 digits, 1969–2068),
 * {@code %m} month, {@code %d}/{@code %e} day of the month, {@code %j} day of the year, {@code %H}
 * hour 0–23, {@code %I} hour 1–12 with {@code %p} (AM/PM), {@code %M} minute, {@code %S} second,
 * {@code %N}/{@code %f} fraction of a second (1–9 digits), {@code %3N}/{@code %6N}/{@code %9N}
 * exactly that many digits, {@code %L} milliseconds as a number of 1–3 digits (so {@code :6} is 6
 * ms, for logs that do not pad them), {@code %b}/{@code %h}/{@code %B} month name (abbreviated or
 * full, any case), {@code %a}/{@code %A} day name (checked for form, not for agreement with the
 * date), {@code %z} offset ({@code Z}, {@code +hh:mm}, {@code +hhmm}, {@code +hh}), {@code %Z} zone
 * name ({@code UTC}, {@code GMT}, or a region id such as {@code Europe/Berlin}), {@code %s} epoch
 * seconds with an optional fraction, {@code %T} = {@code %H:%M:%S}, {@code %F} = {@code %Y-%m-%d},
 * {@code %D} = {@code %m/%d/%y}, {@code %%} a percent sign. Two extensions for formats that vary:
 * {@code %.N} an optional fraction introduced by {@code .} or {@code ,}, and {@code %?z} an
 * optional offset, optionally after one space. Numbers take as many digits as they may (so {@code
 * %y%m%d} reads {@code 081109}); a space matches one or more spaces; any other character matches
 * itself.
 */
public final class StrptimeFormat {
  /** What a parse found; fields not in the format stay at their "absent" values. */
  static final class Parsed {
    int year;
    int month;
    int day;
    int dayOfYear;
    int hour;
    int minute;
    int second;
    int nanos;
    int offsetSeconds;
    ZoneId zone;
    long epochSeconds;
    boolean pm;
    boolean twelveHour;

    void clear() {
      year = -1;
      month = -1;
      day = -1;
      dayOfYear = -1;
      hour = 0;
      minute = 0;
      second = 0;
      nanos = 0;
      offsetSeconds = Integer.MIN_VALUE;
      zone = null;
      epochSeconds = Long.MIN_VALUE;
      pm = false;
      twelveHour = false;
    }
  }

  private final String pattern;
  private final StrptimeElement[] elements;
  private final boolean hasDate;

  private StrptimeFormat(String pattern, StrptimeElement[] elements) {
    this.pattern = pattern;
    this.elements = elements;
    boolean date = false;
    for (StrptimeElement element : elements) {
      date |= element.readsDate();
    }
    this.hasDate = date;
  }

  /**
   * Compiles a format.
   *
   * @throws IllegalArgumentException naming the directive that is unknown or the format that has no
   *     time in it
   */
  public static StrptimeFormat compile(String pattern) {
    List<StrptimeElement> elements = new ArrayList<>();
    StrptimeDirectives.compileInto(pattern, elements);
    if (elements.stream().noneMatch(StrptimeElement::readsDateOrTime)) {
      throw new IllegalArgumentException(
          "time format '" + pattern + "' has neither a date, a time nor %s");
    }
    return new StrptimeFormat(pattern, elements.toArray(StrptimeElement[]::new));
  }

  public String pattern() {
    return pattern;
  }

  /**
   * Matches the format at {@code from}, reading no further than {@code limit}.
   *
   * @return the position after the match, or -1 when the text there is not in this format
   */
  int parse(CharSequence text, int from, int limit, Parsed out) {
    out.clear();
    int at = from;
    for (StrptimeElement element : elements) {
      at = StrptimeMatch.match(element, text, at, limit, out);
      if (at < 0) {
        return -1;
      }
    }
    return at;
  }

  /**
   * The instant a parse found, in epoch microseconds, or {@link Long#MIN_VALUE} for an impossible
   * date (February 30). Without an offset or zone in the text, {@code zone} applies; without a
   * year, the year that puts the time closest before {@code now} (up to two days ahead is allowed,
   * for clocks that differ); without a date, the date of {@code now}.
   */
  long toMicros(Parsed parsed, ZoneId zone, Instant now) {
    if (parsed.epochSeconds != Long.MIN_VALUE) {
      return parsed.epochSeconds * 1_000_000L + parsed.nanos / 1_000;
    }
    int hour = parsed.hour;
    if (parsed.twelveHour) {
      hour = hour % 12 + (parsed.pm ? 12 : 0);
    }
    ZoneId effectiveZone = parsed.zone != null ? parsed.zone : zone;
    try {
      LocalDate date;
      if (!hasDate) {
        date = LocalDate.ofInstant(now, effectiveZone);
      } else if (parsed.year < 0) {
        int year = LocalDate.ofInstant(now, effectiveZone).getYear();
        date = date(parsed, year);
        long micros = micros(date, hour, parsed, effectiveZone);
        if (micros > now.getEpochSecond() * 1_000_000L + 2 * 86_400_000_000L) {
          micros = micros(date(parsed, year - 1), hour, parsed, effectiveZone);
        }
        return micros;
      } else {
        date = date(parsed, parsed.year);
      }
      return micros(date, hour, parsed, effectiveZone);
    } catch (DateTimeException e) {
      return Long.MIN_VALUE;
    }
  }

  private static LocalDate date(Parsed parsed, int year) {
    if (parsed.dayOfYear > 0 && parsed.month < 0) {
      return LocalDate.ofYearDay(year, parsed.dayOfYear);
    }
    return LocalDate.of(year, Math.max(parsed.month, 1), Math.max(parsed.day, 1));
  }

  private static long micros(LocalDate date, int hour, Parsed parsed, ZoneId zone) {
    long offset;
    if (parsed.offsetSeconds != Integer.MIN_VALUE) {
      offset = parsed.offsetSeconds;
    } else if (zone instanceof ZoneOffset fixed) {
      offset = fixed.getTotalSeconds();
    } else {
      offset =
          zone.getRules()
              .getOffset(
                  LocalDateTime.of(date.getYear(), date.getMonth(), date.getDayOfMonth(), hour, 0))
              .getTotalSeconds();
    }
    long seconds =
        date.toEpochDay() * 86_400L + hour * 3600L + parsed.minute * 60L + parsed.second - offset;
    return seconds * 1_000_000L + parsed.nanos / 1_000;
  }

  @Override
  public String toString() {
    return pattern;
  }
}
