package io.quarry.ql.exec;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.SignStyle;
import java.time.format.TextStyle;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splunk's {@code strftime}/{@code strptime} formats: {@code %Y %y %m %d %e %H %k %I %l %M %S %p %b
 * %h %B %a %A %j %Z %z %s %f %3N %6N %9N %T %F %D %%}; other characters stand for themselves.
 */
public final class Strftime {
  private Strftime() {}

  /** The time formatted, or null when it cannot be (a year beyond 9999, out of range). */
  public static String format(long micros, String format, ZoneId zone) {
    return compile(format).format(micros, zone);
  }

  /** A format read once ({@link #compile}): its literal texts and directives in order. */
  public static final class Compiled {
    private final List<Part> parts;

    private Compiled(List<Part> parts) {
      this.parts = List.copyOf(parts);
    }

    /** The time formatted, or null when it cannot be (a year beyond 9999, out of range). */
    public String format(long micros, ZoneId zone) {
      try {
        ZonedDateTime time =
            Instant.ofEpochSecond(
                    Math.floorDiv(micros, 1_000_000), Math.floorMod(micros, 1_000_000) * 1000L)
                .atZone(zone);
        StringBuilder out = new StringBuilder();
        for (Part part : parts) {
          part.append(out, time, micros);
        }
        return out.toString();
      } catch (java.time.DateTimeException | ArithmeticException e) {
        return null;
      }
    }
  }

  /** One piece of a formatted time. */
  private interface Part {
    void append(StringBuilder out, ZonedDateTime time, long micros);
  }

  /** {@code format} read once: what {@link #format} does with it, for one time after another. */
  public static Compiled compile(String format) {
    List<Part> parts = new ArrayList<>();
    StringBuilder literal = new StringBuilder();
    for (int i = 0; i < format.length(); i++) {
      char c = format.charAt(i);
      if (c != '%' || i + 1 == format.length()) {
        literal.append(c);
        continue;
      }
      char d = format.charAt(++i);
      Part part;
      if (Character.isDigit(d) && i + 1 < format.length() && format.charAt(i + 1) == 'N') {
        i++;
        int digits = Math.min(9, Math.max(1, d - '0'));
        part =
            (out, time, micros) ->
                out.append(String.format(Locale.ROOT, "%09d", time.getNano()), 0, digits);
      } else {
        switch (d) {
          case 's' -> part = (out, time, micros) -> out.append(Math.floorDiv(micros, 1_000_000));
          case 'f' ->
              part =
                  (out, time, micros) ->
                      out.append(String.format(Locale.ROOT, "%06d", time.getNano() / 1000));
          case 'N' ->
              part =
                  (out, time, micros) ->
                      out.append(String.format(Locale.ROOT, "%03d", time.getNano() / 1_000_000));
          case '%' -> part = null;
          default -> {
            DateTimeFormatter formatter = formatter(String.valueOf('%') + d);
            part = formatter == null ? null : (out, time, micros) -> formatter.formatTo(time, out);
          }
        }
      }
      if (part == null) {
        literal.append(d == '%' ? "%" : "%" + d);
        continue;
      }
      if (!literal.isEmpty()) {
        String text = literal.toString();
        parts.add((out, time, micros) -> out.append(text));
        literal.setLength(0);
      }
      parts.add(part);
    }
    if (!literal.isEmpty()) {
      String text = literal.toString();
      parts.add((out, time, micros) -> out.append(text));
    }
    return new Compiled(parts);
  }

  /** Epoch microseconds, or null when the text does not fit the format. */
  public static Long parse(String text, String format, ZoneId zone) {
    return parser(format, zone).apply(text);
  }

  /**
   * {@code format} read once for {@link #parse}: epoch microseconds of a text, or null when it does
   * not fit.
   */
  public static java.util.function.Function<String, Long> parser(String format, ZoneId zone) {
    if (format.equals("%s")) {
      return text -> {
        try {
          return Math.round(Double.parseDouble(text.strip()) * 1_000_000d);
        } catch (NumberFormatException e) {
          return null;
        }
      };
    }
    DateTimeFormatter formatter = formatter(format);
    if (formatter == null) {
      return text -> null;
    }
    DateTimeFormatter zoned = formatter.withZone(zone);
    return text -> {
      try {
        Instant instant = ZonedDateTime.from(zoned.parse(text.strip())).toInstant();
        return instant.getEpochSecond() * 1_000_000 + instant.getNano() / 1000;
      } catch (java.time.DateTimeException e) {
        return null;
      }
    };
  }

  /** The whole format as a formatter (defaults: year 1970, January, day 1, midnight). */
  private static DateTimeFormatter formatter(String format) {
    DateTimeFormatterBuilder builder = new DateTimeFormatterBuilder().parseCaseInsensitive();
    boolean year = false;
    boolean month = false;
    boolean day = false;
    boolean hour = false;
    for (int i = 0; i < format.length(); i++) {
      char c = format.charAt(i);
      if (c != '%' || i + 1 == format.length()) {
        builder.appendLiteral(c);
        continue;
      }
      char d = format.charAt(++i);
      if (Character.isDigit(d) && i + 1 < format.length() && format.charAt(i + 1) == 'N') {
        i++;
        int digits = Math.min(9, Math.max(1, d - '0'));
        builder.appendFraction(ChronoField.NANO_OF_SECOND, digits, digits, false);
        continue;
      }
      switch (d) {
        case 'Y' -> {
          builder.appendValue(ChronoField.YEAR, 4, 4, SignStyle.NOT_NEGATIVE);
          year = true;
        }
        case 'y' -> {
          builder.appendValueReduced(ChronoField.YEAR, 2, 2, 2000);
          year = true;
        }
        case 'm' -> {
          builder.appendValue(ChronoField.MONTH_OF_YEAR, 2);
          month = true;
        }
        case 'b', 'h' -> {
          builder.appendText(ChronoField.MONTH_OF_YEAR, TextStyle.SHORT);
          month = true;
        }
        case 'B' -> {
          builder.appendText(ChronoField.MONTH_OF_YEAR, TextStyle.FULL);
          month = true;
        }
        case 'd' -> {
          builder.appendValue(ChronoField.DAY_OF_MONTH, 2);
          day = true;
        }
        case 'e' -> {
          builder.padNext(2).appendValue(ChronoField.DAY_OF_MONTH);
          day = true;
        }
        case 'j' -> {
          builder.appendValue(ChronoField.DAY_OF_YEAR, 3);
          day = true;
          month = true;
        }
        case 'H' -> {
          builder.appendValue(ChronoField.HOUR_OF_DAY, 2);
          hour = true;
        }
        case 'k' -> {
          builder.padNext(2).appendValue(ChronoField.HOUR_OF_DAY);
          hour = true;
        }
        case 'I' -> {
          builder.appendValue(ChronoField.CLOCK_HOUR_OF_AMPM, 2);
          hour = true;
        }
        case 'l' -> {
          builder.padNext(2).appendValue(ChronoField.CLOCK_HOUR_OF_AMPM);
          hour = true;
        }
        case 'p' -> builder.appendText(ChronoField.AMPM_OF_DAY, TextStyle.SHORT);
        case 'M' -> builder.appendValue(ChronoField.MINUTE_OF_HOUR, 2);
        case 'S' -> builder.appendValue(ChronoField.SECOND_OF_MINUTE, 2);
        case 'f' -> builder.appendFraction(ChronoField.NANO_OF_SECOND, 6, 6, false);
        case 'a' -> builder.appendText(ChronoField.DAY_OF_WEEK, TextStyle.SHORT);
        case 'A' -> builder.appendText(ChronoField.DAY_OF_WEEK, TextStyle.FULL);
        case 'Z' -> builder.appendZoneText(TextStyle.SHORT);
        case 'z' -> builder.appendOffset("+HHMM", "+0000");
        case 'T' -> {
          builder.appendPattern("HH:mm:ss");
          hour = true;
        }
        case 'F' -> {
          builder.appendPattern("uuuu-MM-dd");
          year = month = day = true;
        }
        case 'D' -> {
          builder.appendPattern("MM/dd/yy");
          year = month = day = true;
        }
        case '%' -> builder.appendLiteral('%');
        default -> {
          return null;
        }
      }
    }
    if (!year) {
      builder.parseDefaulting(ChronoField.YEAR, 1970);
    }
    if (!month) {
      builder.parseDefaulting(ChronoField.MONTH_OF_YEAR, 1);
    }
    if (!day) {
      builder.parseDefaulting(ChronoField.DAY_OF_MONTH, 1);
    }
    if (!hour) {
      builder.parseDefaulting(ChronoField.HOUR_OF_DAY, 0);
    }
    builder.parseDefaulting(ChronoField.MINUTE_OF_HOUR, 0);
    builder.parseDefaulting(ChronoField.SECOND_OF_MINUTE, 0);
    return builder.toFormatter(Locale.ENGLISH);
  }
}
