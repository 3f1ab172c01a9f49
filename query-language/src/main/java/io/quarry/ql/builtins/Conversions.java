package io.quarry.ql.builtins;

import io.quarry.ql.exec.Strftime;
import java.time.ZoneId;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The value conversions of {@code convert}: each takes one value (Long, Double, Boolean or String;
 * times as epoch seconds) and gives the converted value, or null when the value does not convert.
 */
final class Conversions {
  private static final Pattern NUMBER =
      Pattern.compile("[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?");
  private static final Pattern LEADING_NUMBER =
      Pattern.compile("^\\s*([+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?)");
  private static final Pattern MEMK =
      Pattern.compile("([+-]?(?:\\d+\\.?\\d*|\\.\\d+))\\s*([kKmMgG]?)");
  private static final Pattern DURATION =
      Pattern.compile("(?:(\\d+)\\+)?(\\d+):(\\d{1,2}):(\\d{1,2}(?:\\.\\d+)?)");
  private static final Pattern MSTIME = Pattern.compile("(?:(\\d+):)?(\\d+(?:\\.\\d+)?)");

  private Conversions() {}

  /** The functions {@code convert} knows. */
  static final java.util.List<String> NAMES =
      java.util.List.of(
          "auto", "ctime", "dur2sec", "memk", "mktime", "mstime", "none", "num", "rmcomma",
          "rmunit");

  /**
   * {@code value} converted by {@code function}, or null when it does not convert.
   *
   * @param timeformat the format of ctime's output and mktime's input
   */
  static Object convert(String function, Object value, String timeformat, ZoneId zone) {
    return switch (function) {
      case "auto", "num" -> number(value, true);
      case "rmcomma" -> {
        Object number = number(value, true);
        yield number != null ? number : text(value).replace(",", "");
      }
      case "rmunit" -> {
        if (value instanceof Long || value instanceof Double) {
          yield value;
        }
        Matcher m = LEADING_NUMBER.matcher(text(value));
        yield m.find() ? parse(m.group(1)) : null;
      }
      case "memk" -> memk(value);
      case "dur2sec" -> dur2sec(value);
      case "mstime" -> mstime(value);
      case "ctime" -> {
        Object seconds = number(value, false);
        if (seconds == null) {
          yield null;
        }
        long micros = Math.round(((Number) seconds).doubleValue() * 1_000_000d);
        yield Strftime.format(micros, timeformat, zone);
      }
      case "mktime" -> {
        if (value instanceof Long || value instanceof Double) {
          yield value; // already epoch seconds
        }
        Long micros = Strftime.parse(text(value), timeformat, zone);
        yield micros == null ? null : seconds(micros);
      }
      default -> throw new IllegalArgumentException("not a convert function: " + function);
    };
  }

  /** A number for a number or the text of one (commas between digits allowed when asked). */
  static Object number(Object value, boolean commas) {
    if (value instanceof Long || value instanceof Double) {
      return value;
    }
    if (!(value instanceof String text)) {
      return null;
    }
    String stripped = text.strip();
    if (commas && stripped.matches("[+-]?\\d{1,3}(,\\d{3})+(\\.\\d*)?")) {
      stripped = stripped.replace(",", "");
    }
    return NUMBER.matcher(stripped).matches() ? parse(stripped) : null;
  }

  /** A long for a whole number that fits, else a double. */
  private static Object parse(String number) {
    if (number.matches("[+-]?\\d{1,18}")) {
      return Long.parseLong(number);
    }
    double d = Double.parseDouble(number);
    return Double.isFinite(d) ? d : null;
  }

  private static Object memk(Object value) {
    if (value instanceof Long || value instanceof Double) {
      return value;
    }
    Matcher m = MEMK.matcher(text(value).strip());
    if (!m.matches()) {
      return null;
    }
    double amount = Double.parseDouble(m.group(1));
    double factor =
        switch (m.group(2).toLowerCase(Locale.ROOT)) {
          case "m" -> 1024d;
          case "g" -> 1024d * 1024d;
          default -> 1d;
        };
    return whole(amount * factor);
  }

  private static Object dur2sec(Object value) {
    if (value instanceof Long || value instanceof Double) {
      return value;
    }
    Matcher m = DURATION.matcher(text(value).strip());
    if (!m.matches()) {
      return null;
    }
    long days = m.group(1) == null ? 0 : Long.parseLong(m.group(1));
    double seconds =
        days * 86_400d
            + Long.parseLong(m.group(2)) * 3_600d
            + Long.parseLong(m.group(3)) * 60d
            + Double.parseDouble(m.group(4));
    return whole(seconds);
  }

  private static Object mstime(Object value) {
    if (value instanceof Long || value instanceof Double) {
      return value;
    }
    Matcher m = MSTIME.matcher(text(value).strip());
    if (!m.matches()) {
      return null;
    }
    long minutes = m.group(1) == null ? 0 : Long.parseLong(m.group(1));
    return whole(minutes * 60d + Double.parseDouble(m.group(2)));
  }

  private static Object whole(double number) {
    return number == Math.rint(number) && Math.abs(number) < 0x1p53
        ? (Object) (long) number
        : number;
  }

  private static Object seconds(long micros) {
    return micros % 1_000_000 == 0 ? (Object) (micros / 1_000_000) : (Object) (micros / 1e6);
  }

  private static String text(Object value) {
    return Cells.text(value);
  }
}
