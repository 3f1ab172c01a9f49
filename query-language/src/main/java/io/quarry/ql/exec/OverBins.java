package io.quarry.ql.exec;

import io.quarry.ql.ast.Span;
import java.time.ZoneId;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code chart}'s over-field, or a chart's or timechart's split field, cut into bins ({@code chart
 * … over X span=S}, {@code … by Y bins=N}), as {@code bin} cuts a field: a number becomes its range
 * label {@code low-high}, {@code _time} the start of its span. Rows of number bins are ordered by
 * their low end, and with {@code cont=true} the empty bins between the first and the last are
 * filled in.
 */
final class OverBins {
  private OverBins() {}

  /** Range labels by their low end ({@code 200-300} before {@code 1000-1100}); others after. */
  static final Comparator<Object> ORDER =
      (a, b) -> {
        double x = low(Values.toText(a));
        double y = low(Values.toText(b));
        if (Double.isNaN(x) || Double.isNaN(y)) {
          int c = Boolean.compare(Double.isNaN(x), Double.isNaN(y));
          return c != 0 ? c : Values.NATURAL_ORDER.compare(a, b);
        }
        return Double.compare(x, y);
      };

  /** The low end of a range label {@code low-high}, or NaN. */
  static double low(String label) {
    int dash = label.indexOf('-', 1);
    if (dash < 0) {
      return Double.NaN;
    }
    try {
      return Double.parseDouble(label.substring(0, dash));
    } catch (NumberFormatException notARange) {
      return Double.NaN;
    }
  }

  /**
   * The span for {@code bins} bins over the over-values held (the first of each group key), as
   * {@code bin bins=N} chooses it; null when no value is a number.
   */
  static Span choose(Set<List<Object>> keys, String field, int bins, ZoneId zone) {
    return choose(keys, 0, field, bins, zone);
  }

  /** As above, over the values at {@code index} of the group keys (a split field's). */
  static Span choose(Set<List<Object>> keys, int index, String field, int bins, ZoneId zone) {
    double low = Double.POSITIVE_INFINITY;
    double high = Double.NEGATIVE_INFINITY;
    for (List<Object> key : keys) {
      double value = Values.toNumber(key.get(index));
      if (Double.isFinite(value)) {
        low = Math.min(low, value);
        high = Math.max(high, value);
      }
    }
    if (low > high) {
      return null;
    }
    return TimeField.is(field)
        ? Span.automatic((long) low, (long) high, bins, 0, zone)
        : Span.automaticWidth(low, high, bins, 0);
  }

  /** A held over-value's text binned by {@code span}. */
  static String binText(Span span, String field, String value, ZoneId zone) {
    Object binnable = value;
    if (TimeField.is(field)) {
      try {
        binnable = Long.parseLong(value);
      } catch (NumberFormatException notMicros) {
        return value;
      }
    }
    return Values.toText(Bins.bin(span, field, binnable, zone));
  }

  /**
   * Adds an empty row for each bin between the first and the last ({@code cont=true}): number
   * ranges by their width, {@code _time} spans by the span.
   */
  static void fill(
      TreeMap<Object, Map<String, Object>> rows, Span span, String field, ZoneId zone) {
    if (rows.isEmpty()) {
      return;
    }
    if (span.isTime()) {
      if (!TimeField.is(field)) {
        return; // a time span over epoch seconds: labelled by seconds, left as they are
      }
      long first = Long.MAX_VALUE;
      long last = Long.MIN_VALUE;
      for (Object key : rows.keySet()) {
        try {
          long micros = Long.parseLong(Values.toText(key));
          first = Math.min(first, micros);
          last = Math.max(last, micros);
        } catch (NumberFormatException notTime) {
          // a value that was not a time stays as it is
        }
      }
      for (long start = first;
          first != Long.MAX_VALUE && start <= last;
          start = span.next(start, zone)) {
        rows.putIfAbsent(Long.toString(start), new java.util.HashMap<>());
      }
      return;
    }
    double width = span.width();
    long firstIndex = Long.MAX_VALUE;
    long lastIndex = Long.MIN_VALUE;
    for (Object key : rows.keySet()) {
      double low = low(Values.toText(key));
      if (!Double.isNaN(low)) {
        long index = Math.round(low / width);
        firstIndex = Math.min(firstIndex, index);
        lastIndex = Math.max(lastIndex, index);
      }
    }
    if (firstIndex == Long.MAX_VALUE || lastIndex - firstIndex > 50_000) {
      return;
    }
    for (long index = firstIndex; index <= lastIndex; index++) {
      String label = Values.toText(Bins.bin(span, field, (index + 0.5) * width, zone));
      rows.putIfAbsent(label, new java.util.HashMap<>());
    }
  }
}
