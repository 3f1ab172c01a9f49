package io.quarry.ql.exec;

import java.util.Comparator;
import java.util.Locale;

/** Helpers for comparing the loosely typed values of fields, the way Splunk does. */
public final class Values {
  private Values() {}

  /** The value as a double, or NaN when it is not a number. */
  public static double toNumber(Object value) {
    if (value instanceof Long l) {
      return l;
    }
    if (value instanceof Double d) {
      return d;
    }
    if (value instanceof String s) {
      return parseNumber(s);
    }
    return Double.NaN;
  }

  static double parseNumber(String text) {
    int length = text.length();
    if (length == 0 || length > 40) {
      return Double.NaN;
    }
    char first = text.charAt(0);
    if (!(Character.isDigit(first) || first == '-' || first == '+' || first == '.')) {
      return Double.NaN;
    }
    for (int i = 1; i < length; i++) {
      char c = text.charAt(i);
      if (!(Character.isDigit(c) || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+')) {
        return Double.NaN;
      }
    }
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  public static String toText(Object value) {
    if (value instanceof Double d && d == Math.rint(d) && !Double.isInfinite(d)) {
      return Long.toString(d.longValue());
    }
    return String.valueOf(value);
  }

  /** Numbers before strings; numbers numerically, strings case-insensitively then exactly. */
  public static final Comparator<Object> NATURAL_ORDER =
      (a, b) -> {
        double x = toNumber(a);
        double y = toNumber(b);
        boolean xNumber = !Double.isNaN(x);
        boolean yNumber = !Double.isNaN(y);
        if (xNumber && yNumber) {
          return Double.compare(x, y);
        }
        if (xNumber != yNumber) {
          return xNumber ? -1 : 1;
        }
        String s = toText(a);
        String t = toText(b);
        int folded = s.toLowerCase(Locale.ROOT).compareTo(t.toLowerCase(Locale.ROOT));
        return folded != 0 ? folded : s.compareTo(t);
      };
}
