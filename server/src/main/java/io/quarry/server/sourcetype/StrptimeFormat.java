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
 * elements and matched by hand at a given position: no regular expression and no allocation per
 * event on the usual path.
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

  private enum Kind {
    LITERAL,
    SPACES,
    YEAR4,
    YEAR2,
    MONTH,
    DAY,
    DAY_OF_YEAR,
    HOUR24,
    HOUR12,
    MINUTE,
    SECOND,
    FRACTION,
    OPTIONAL_FRACTION,
    MILLIS,
    MONTH_NAME,
    DAY_NAME,
    AM_PM,
    OFFSET,
    OPTIONAL_OFFSET,
    ZONE_NAME,
    EPOCH
  }

  private record Element(Kind kind, char literal, int digits) {}

  private static final String[] MONTHS = {
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december"
  };
  private static final String[] DAYS = {
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"
  };

  /** Epoch seconds accepted by {@code %s}: 1990-01-01 up to 2100-01-01. */
  private static final long MIN_EPOCH = 631_152_000L;

  private static final long MAX_EPOCH = 4_102_444_800L;

  private final String pattern;
  private final Element[] elements;
  private final boolean hasDate;

  private StrptimeFormat(String pattern, Element[] elements) {
    this.pattern = pattern;
    this.elements = elements;
    boolean date = false;
    for (Element element : elements) {
      date |=
          switch (element.kind()) {
            case MONTH, MONTH_NAME, DAY, DAY_OF_YEAR, EPOCH -> true;
            default -> false;
          };
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
    List<Element> elements = new ArrayList<>();
    compileInto(pattern, elements);
    if (elements.stream()
        .noneMatch(
            e ->
                switch (e.kind()) {
                  case EPOCH, HOUR24, HOUR12, MONTH, MONTH_NAME, DAY, DAY_OF_YEAR -> true;
                  default -> false;
                })) {
      throw new IllegalArgumentException(
          "time format '" + pattern + "' has neither a date, a time nor %s");
    }
    return new StrptimeFormat(pattern, elements.toArray(Element[]::new));
  }

  private static void compileInto(String pattern, List<Element> into) {
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c != '%') {
        into.add(c == ' ' ? new Element(Kind.SPACES, ' ', 0) : new Element(Kind.LITERAL, c, 0));
        continue;
      }
      if (++i == pattern.length()) {
        throw new IllegalArgumentException("time format '" + pattern + "' ends with a lone %");
      }
      char directive = pattern.charAt(i);
      int digits = 0;
      if (directive >= '1' && directive <= '9') {
        digits = directive - '0';
        if (++i == pattern.length() || pattern.charAt(i) != 'N') {
          throw new IllegalArgumentException(
              "time format '" + pattern + "': only N takes a width (%3N, %6N, %9N)");
        }
        into.add(new Element(Kind.FRACTION, 'N', digits));
        continue;
      }
      if (directive == '.' || directive == '?') {
        char next = ++i < pattern.length() ? pattern.charAt(i) : 0;
        if (directive == '.' && next == 'N') {
          into.add(new Element(Kind.OPTIONAL_FRACTION, 'N', 0));
          continue;
        }
        if (directive == '?' && next == 'z') {
          into.add(new Element(Kind.OPTIONAL_OFFSET, 'z', 0));
          continue;
        }
        throw new IllegalArgumentException(
            "time format '" + pattern + "': unknown directive %" + directive + next);
      }
      switch (directive) {
        case 'Y' -> into.add(new Element(Kind.YEAR4, directive, 4));
        case 'y' -> into.add(new Element(Kind.YEAR2, directive, 2));
        case 'm' -> into.add(new Element(Kind.MONTH, directive, 2));
        case 'd', 'e' -> into.add(new Element(Kind.DAY, directive, 2));
        case 'j' -> into.add(new Element(Kind.DAY_OF_YEAR, directive, 3));
        case 'H', 'k' -> into.add(new Element(Kind.HOUR24, directive, 2));
        case 'I', 'l' -> into.add(new Element(Kind.HOUR12, directive, 2));
        case 'M' -> into.add(new Element(Kind.MINUTE, directive, 2));
        case 'S' -> into.add(new Element(Kind.SECOND, directive, 2));
        case 'N', 'f' -> into.add(new Element(Kind.FRACTION, directive, 0));
        case 'L' -> into.add(new Element(Kind.MILLIS, directive, 3));
        case 'b', 'h', 'B' -> into.add(new Element(Kind.MONTH_NAME, directive, 0));
        case 'a', 'A' -> into.add(new Element(Kind.DAY_NAME, directive, 0));
        case 'p' -> into.add(new Element(Kind.AM_PM, directive, 0));
        case 'z' -> into.add(new Element(Kind.OFFSET, directive, 0));
        case 'Z' -> into.add(new Element(Kind.ZONE_NAME, directive, 0));
        case 's' -> into.add(new Element(Kind.EPOCH, directive, 0));
        case 'T' -> compileInto("%H:%M:%S", into);
        case 'F' -> compileInto("%Y-%m-%d", into);
        case 'D' -> compileInto("%m/%d/%y", into);
        case '%' -> into.add(new Element(Kind.LITERAL, '%', 0));
        default ->
            throw new IllegalArgumentException(
                "time format '" + pattern + "': unknown directive %" + directive);
      }
    }
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
    for (Element element : elements) {
      at = match(element, text, at, limit, out);
      if (at < 0) {
        return -1;
      }
    }
    return at;
  }

  private static int match(Element element, CharSequence text, int at, int limit, Parsed out) {
    switch (element.kind()) {
      case LITERAL -> {
        return at < limit && text.charAt(at) == element.literal() ? at + 1 : -1;
      }
      case SPACES -> {
        int end = at;
        while (end < limit && text.charAt(end) == ' ') {
          end++;
        }
        return end > at ? end : -1;
      }
      case YEAR4 -> {
        int end = digits(text, at, limit, 4, 4);
        if (end < 0) {
          return -1;
        }
        out.year = number(text, at, end);
        return end;
      }
      case YEAR2 -> {
        int end = digits(text, at, limit, 2, 2);
        if (end < 0) {
          return -1;
        }
        int year = number(text, at, end);
        out.year = year < 69 ? 2000 + year : 1900 + year;
        return end;
      }
      case MONTH -> {
        return ranged(text, at, limit, 2, 1, 12, v -> out.month = v);
      }
      case DAY -> {
        int start = at < limit && text.charAt(at) == ' ' ? at + 1 : at; // %e: " 4"
        return ranged(text, start, limit, 2, 1, 31, v -> out.day = v);
      }
      case DAY_OF_YEAR -> {
        return ranged(text, at, limit, 3, 1, 366, v -> out.dayOfYear = v);
      }
      case HOUR24 -> {
        return ranged(text, at, limit, 2, 0, 23, v -> out.hour = v);
      }
      case HOUR12 -> {
        out.twelveHour = true;
        return ranged(text, at, limit, 2, 1, 12, v -> out.hour = v);
      }
      case MINUTE -> {
        return ranged(text, at, limit, 2, 0, 59, v -> out.minute = v);
      }
      case SECOND -> {
        return ranged(text, at, limit, 2, 0, 60, v -> out.second = Math.min(v, 59));
      }
      case FRACTION -> {
        return fraction(text, at, limit, element.digits(), out);
      }
      case MILLIS -> {
        return ranged(text, at, limit, 3, 0, 999, v -> out.nanos = v * 1_000_000);
      }
      case OPTIONAL_FRACTION -> {
        if (at + 1 < limit
            && (text.charAt(at) == '.' || text.charAt(at) == ',')
            && isDigit(text.charAt(at + 1))) {
          return fraction(text, at + 1, limit, 0, out);
        }
        return at;
      }
      case MONTH_NAME -> {
        int end = letters(text, at, limit);
        int month = name(text, at, end, MONTHS);
        if (month < 0) {
          return -1;
        }
        out.month = month + 1;
        return end;
      }
      case DAY_NAME -> {
        int end = letters(text, at, limit);
        return name(text, at, end, DAYS) < 0 ? -1 : end;
      }
      case AM_PM -> {
        if (at + 1 >= limit || Character.toLowerCase(text.charAt(at + 1)) != 'm') {
          return -1;
        }
        char c = Character.toLowerCase(text.charAt(at));
        if (c != 'a' && c != 'p') {
          return -1;
        }
        out.pm = c == 'p';
        return at + 2;
      }
      case OFFSET -> {
        return offset(text, at, limit, out);
      }
      case OPTIONAL_OFFSET -> {
        int end = offset(text, at, limit, out);
        if (end < 0 && at < limit && text.charAt(at) == ' ') {
          end = offset(text, at + 1, limit, out);
        }
        return end < 0 ? at : end;
      }
      case ZONE_NAME -> {
        int end = at;
        while (end < limit
            && (Character.isLetterOrDigit(text.charAt(end))
                || text.charAt(end) == '/'
                || text.charAt(end) == '_')) {
          end++;
        }
        if (end == at) {
          return -1;
        }
        String name = text.subSequence(at, end).toString();
        try {
          out.zone =
              name.equals("Z") || name.equals("UTC") || name.equals("GMT")
                  ? ZoneOffset.UTC
                  : ZoneId.of(name);
        } catch (DateTimeException e) {
          return -1;
        }
        return end;
      }
      case EPOCH -> {
        int end = digits(text, at, limit, 10, 10);
        if (end < 0 || (end < limit && isDigit(text.charAt(end)))) {
          return -1;
        }
        long seconds = 0;
        for (int i = at; i < end; i++) {
          seconds = seconds * 10 + (text.charAt(i) - '0');
        }
        if (seconds < MIN_EPOCH || seconds >= MAX_EPOCH) {
          return -1;
        }
        out.epochSeconds = seconds;
        if (end + 1 < limit && text.charAt(end) == '.' && isDigit(text.charAt(end + 1))) {
          return fraction(text, end + 1, limit, 0, out);
        }
        return end;
      }
      default -> throw new AssertionError(element.kind());
    }
  }

  @FunctionalInterface
  private interface IntSetter {
    void set(int value);
  }

  private static int ranged(
      CharSequence text, int at, int limit, int maxDigits, int min, int max, IntSetter setter) {
    int end = digits(text, at, limit, 1, maxDigits);
    if (end < 0) {
      return -1;
    }
    int value = number(text, at, end);
    if (value < min || value > max) {
      return -1;
    }
    setter.set(value);
    return end;
  }

  private static int fraction(CharSequence text, int at, int limit, int exact, Parsed out) {
    int end = exact > 0 ? digits(text, at, limit, exact, exact) : digits(text, at, limit, 1, 9);
    if (end < 0) {
      return -1;
    }
    int nanos = 0;
    for (int i = at; i < at + 9; i++) {
      nanos = nanos * 10 + (i < end ? text.charAt(i) - '0' : 0);
    }
    out.nanos = nanos;
    while (exact == 0 && end < limit && isDigit(text.charAt(end))) {
      end++; // digits past nanoseconds are read and ignored
    }
    return end;
  }

  private static int offset(CharSequence text, int at, int limit, Parsed out) {
    if (at >= limit) {
      return -1;
    }
    char sign = text.charAt(at);
    if (sign == 'Z') {
      out.offsetSeconds = 0;
      return at + 1;
    }
    if (sign != '+' && sign != '-') {
      return -1;
    }
    int hoursEnd = digits(text, at + 1, limit, 2, 2);
    if (hoursEnd < 0) {
      return -1;
    }
    int hours = number(text, at + 1, hoursEnd);
    int minutes = 0;
    int end = hoursEnd;
    int minutesStart = end < limit && text.charAt(end) == ':' ? end + 1 : end;
    int minutesEnd = digits(text, minutesStart, limit, 2, 2);
    if (minutesEnd > 0) {
      minutes = number(text, minutesStart, minutesEnd);
      end = minutesEnd;
    }
    if (hours > 18 || minutes > 59) {
      return -1;
    }
    int seconds = hours * 3600 + minutes * 60;
    out.offsetSeconds = sign == '-' ? -seconds : seconds;
    return end;
  }

  /** The end of a run of {@code min..max} digits at {@code at} (as many as there are), or -1. */
  private static int digits(CharSequence text, int at, int limit, int min, int max) {
    int end = at;
    while (end < limit && end - at < max && isDigit(text.charAt(end))) {
      end++;
    }
    return end - at >= min ? end : -1;
  }

  private static int number(CharSequence text, int from, int to) {
    int value = 0;
    for (int i = from; i < to; i++) {
      value = value * 10 + (text.charAt(i) - '0');
    }
    return value;
  }

  private static int letters(CharSequence text, int at, int limit) {
    int end = at;
    while (end < limit && end - at < 9 && isAsciiLetter(text.charAt(end))) {
      end++;
    }
    return end;
  }

  /** The index of the name whose first three letters or whole text {@code [from, to)} is. */
  private static int name(CharSequence text, int from, int to, String[] names) {
    int length = to - from;
    if (length < 3) {
      return -1;
    }
    for (int n = 0; n < names.length; n++) {
      String name = names[n];
      if (length != 3 && length != name.length()) {
        continue;
      }
      boolean same = true;
      for (int i = 0; i < length && same; i++) {
        same = Character.toLowerCase(text.charAt(from + i)) == name.charAt(i);
      }
      if (same) {
        return n;
      }
    }
    return -1;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
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
