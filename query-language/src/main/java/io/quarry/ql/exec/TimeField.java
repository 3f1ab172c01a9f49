package io.quarry.ql.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * How {@code _time} reads and writes. A row holds an event's time as epoch microseconds (a {@code
 * Long}), which {@link PageBuilder} turns into a timestamp column; everything that computes with
 * the value — {@code eval} and {@code where}, every aggregation, comparisons in {@code search}, a
 * rename or a {@code bin … as} to another name, {@code fieldsummary}, {@code outputlookup} — reads
 * it as Splunk's epoch seconds: a whole number as a {@code Long}, else a {@code Double} (micro
 * precision). A number written into {@code _time} (by {@code eval}, an aggregation named {@code
 * _time}, a rename) is epoch seconds and becomes microseconds again, so a {@code _time} column
 * stays a timestamp.
 */
public final class TimeField {
  /** The field's name. */
  public static final String NAME = "_time";

  private static final double MICROS_PER_SECOND = 1_000_000d;

  private TimeField() {}

  /** Whether {@code field} is {@code _time}. */
  public static boolean is(String field) {
    return NAME.equals(field);
  }

  /** Epoch microseconds as epoch seconds: a whole number as a {@code Long}, else a double. */
  public static Object secondsOf(long micros) {
    return micros % 1_000_000 == 0 ? (Object) (micros / 1_000_000) : (Object) (micros / 1e6);
  }

  /** A {@code _time} value as a computation reads it: seconds for microseconds, else unchanged. */
  public static Object seconds(Object value) {
    return value instanceof Long micros ? secondsOf(micros) : value;
  }

  /** {@link #seconds} of each value. */
  public static List<Object> seconds(List<Object> values) {
    if (values.isEmpty()) {
      return values;
    }
    if (values.size() == 1) {
      return List.of(seconds(values.get(0)));
    }
    List<Object> seconds = new ArrayList<>(values.size());
    for (Object value : values) {
      seconds.add(seconds(value));
    }
    return seconds;
  }

  /**
   * A {@code _time} value as a number of seconds, or NaN: what {@link Values#toNumber} gives for
   * its {@link #seconds}, without boxing. {@code micros / 1e6} is the double nearest the decimal
   * {@code seconds.micros}, as parsing Splunk's text would give.
   */
  static double secondsNumber(Object value) {
    return value instanceof Long micros ? micros / MICROS_PER_SECOND : Values.toNumber(value);
  }

  /**
   * Seconds that came from microseconds ({@link #secondsNumber}) as {@link #secondsOf} writes them:
   * a whole number as a {@code Long}; outside what a double holds to the microsecond, the double.
   */
  public static Object exactSeconds(double seconds) {
    double micros = Math.rint(seconds * MICROS_PER_SECOND);
    return Math.abs(micros) < 0x1p53 ? secondsOf((long) micros) : (Object) seconds;
  }

  /**
   * {@code max - min} of seconds that came from microseconds, to the microsecond: 1767744001.123456
   * - 1767744000 is 1.123456, where the doubles' difference is 1.1234560012817383.
   */
  public static Object exactRange(double min, double max) {
    double low = Math.rint(min * MICROS_PER_SECOND);
    double high = Math.rint(max * MICROS_PER_SECOND);
    if (Math.abs(low) < 0x1p53 && Math.abs(high) < 0x1p53) {
      return secondsOf((long) high - (long) low);
    }
    double range = max - min;
    return range == Math.rint(range) && Math.abs(range) < 0x1p53 ? (Object) (long) range : range;
  }

  /** A {@code _time} value's text as a computation reads it ({@code 1767744000.5}). */
  static String secondsText(Object value) {
    return Values.toText(seconds(value));
  }

  /**
   * A value written into {@code _time}: a number (or numeric text) is epoch seconds and becomes
   * microseconds; a multivalue is converted value by value; anything else is kept as it is.
   */
  public static Object micros(Object value) {
    if (value instanceof List<?> list) {
      List<Object> micros = new ArrayList<>(list.size());
      for (Object each : list) {
        micros.add(micros(each));
      }
      return micros;
    }
    double seconds = Values.toNumber(value);
    return Double.isNaN(seconds) || Double.isInfinite(seconds)
        ? value
        : (Object) Math.round(seconds * MICROS_PER_SECOND);
  }

  /** {@link #micros} of each value. */
  static List<Object> micros(List<Object> values) {
    List<Object> micros = new ArrayList<>(values.size());
    for (Object value : values) {
      micros.add(micros(value));
    }
    return micros;
  }

  /**
   * A group value of {@code field} as output by the commands that group by text ({@code stats by},
   * {@code top}, {@code chart over}): a {@code _time} group is a time again (microseconds).
   */
  public static Object groupValue(String field, Object key) {
    if (is(field) && key instanceof String text) {
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException notMicros) {
        return text;
      }
    }
    return key;
  }
}
