package io.quarry.server.sourcetype;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * Matches one step of a {@link StrptimeFormat} against text by hand (no regular expression, no
 * allocation but for a zone name), writing what it reads into a {@link StrptimeFormat.Parsed}.
 */
final class StrptimeMatch {
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

  /**
   * How far past the end of a format's match its parse may look: every position it reads, or checks
   * against the limit, is before {@code end + LOOK_PAST}, {@code end} being where the match ends
   * (what {@link StrptimeFormat#parse} returns). {@link TimestampMemo} relies on it. Each element
   * reads and checks at most the position it returns, but for these: an absent {@code %.N}, or an
   * epoch's absent fraction, checks and may read one past it ({@code "."} then no digit); an offset
   * without minutes reads two past ({@code ":"} and one digit); and a {@code %?z} that finds no
   * offset returns where it began after reading up to {@code " +hh:mm"}, six past, and checking
   * seven past. No element returns more than the format's end, so eight covers every one. A change
   * to what an element reads must keep this true ({@code TimestampMemoTest} checks it over every
   * loghub line at every position).
   */
  static final int LOOK_PAST = 8;

  private StrptimeMatch() {}

  /**
   * Matches {@code element} at {@code at}, reading no further than {@code limit}.
   *
   * @return the position after the match, or -1 when the text there does not fit
   */
  static int match(
      StrptimeElement element, CharSequence text, int at, int limit, StrptimeFormat.Parsed out) {
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
        return ranged(text, at, limit, 2, 1, 12, out, (parsed, v) -> parsed.month = v);
      }
      case DAY -> {
        int start = at < limit && text.charAt(at) == ' ' ? at + 1 : at; // %e: " 4"
        return ranged(text, start, limit, 2, 1, 31, out, (parsed, v) -> parsed.day = v);
      }
      case DAY_OF_YEAR -> {
        return ranged(text, at, limit, 3, 1, 366, out, (parsed, v) -> parsed.dayOfYear = v);
      }
      case HOUR24 -> {
        return ranged(text, at, limit, 2, 0, 23, out, (parsed, v) -> parsed.hour = v);
      }
      case HOUR12 -> {
        out.twelveHour = true;
        return ranged(text, at, limit, 2, 1, 12, out, (parsed, v) -> parsed.hour = v);
      }
      case MINUTE -> {
        return ranged(text, at, limit, 2, 0, 59, out, (parsed, v) -> parsed.minute = v);
      }
      case SECOND -> {
        return ranged(
            text, at, limit, 2, 0, 60, out, (parsed, v) -> parsed.second = Math.min(v, 59));
      }
      case FRACTION -> {
        return fraction(text, at, limit, element.digits(), out);
      }
      case MILLIS -> {
        return ranged(text, at, limit, 3, 0, 999, out, (parsed, v) -> parsed.nanos = v * 1_000_000);
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

  /**
   * Where a number goes in the parse: given the parse, not capturing it, so each setter is one
   * constant lambda instead of an object made per element of every event's time.
   */
  @FunctionalInterface
  private interface IntSetter {
    void set(StrptimeFormat.Parsed parsed, int value);
  }

  private static int ranged(
      CharSequence text,
      int at,
      int limit,
      int maxDigits,
      int min,
      int max,
      StrptimeFormat.Parsed out,
      IntSetter setter) {
    int end = digits(text, at, limit, 1, maxDigits);
    if (end < 0) {
      return -1;
    }
    int value = number(text, at, end);
    if (value < min || value > max) {
      return -1;
    }
    setter.set(out, value);
    return end;
  }

  private static int fraction(
      CharSequence text, int at, int limit, int exact, StrptimeFormat.Parsed out) {
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

  private static int offset(CharSequence text, int at, int limit, StrptimeFormat.Parsed out) {
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
}
