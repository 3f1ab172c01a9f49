package io.quarry.ql.exec;

import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Plain Java {@code eventstats}, {@code streamstats}, {@code accum}, {@code delta}, {@code
 * autoregress}, {@code trendline} and {@code filldown} over rows in input order (field → a value or
 * a {@code List}), the independent oracle of {@code StatefulStagesTest}: each function of a group
 * is {@link PlainStats#compute}, everything else is written out here from the commands' documented
 * meaning. A row's group is the combination of its by-fields' first values (a row lacking one is in
 * none and passes unchanged); {@code eventstats} adds a row to every combination of its values, as
 * {@code stats} does. A result is set on the row under its name (replacing a field of that name);
 * no result removes it.
 */
final class PlainStreams {
  private PlainStreams() {}

  /** The row's group: its by-fields' first values as text, or null when one has none. */
  private static List<Object> firstKey(Map<String, Object> row, List<String> by) {
    List<Object> key = new ArrayList<>();
    for (String field : by) {
      List<Object> values = PlainStats.values(row, field);
      if (values.isEmpty()) {
        return null;
      }
      key.add(PlainStats.text(values.get(0), field));
    }
    return key;
  }

  private static Map<String, Object> withResults(
      Map<String, Object> row, List<PlainStats.Call> calls, List<Map<String, Object>> group) {
    Map<String, Object> out = new LinkedHashMap<>(row);
    for (PlainStats.Call call : calls) {
      Object value = PlainStats.compute(call.function(), call.field(), group);
      if (value == null) {
        out.remove(call.name());
      } else {
        out.put(call.name(), value);
      }
    }
    return out;
  }

  static List<Map<String, Object>> eventstats(
      List<Map<String, Object>> rows, String calls, List<String> by) {
    List<PlainStats.Call> parsed = PlainStats.Call.parse(calls);
    Map<List<Object>, List<Map<String, Object>>> groups = new HashMap<>();
    for (Map<String, Object> row : rows) {
      List<List<Object>> keys = new ArrayList<>();
      keys.add(List.of());
      for (String field : by) {
        List<List<Object>> longer = new ArrayList<>();
        for (String value : PlainStats.distinctTexts(row, field)) {
          for (List<Object> key : keys) {
            List<Object> next = new ArrayList<>(key);
            next.add(value);
            longer.add(next);
          }
        }
        keys = longer;
      }
      keys.forEach(key -> groups.computeIfAbsent(key, k -> new ArrayList<>()).add(row));
    }
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      List<Object> key = firstKey(row, by);
      out.add(key == null ? row : withResults(row, parsed, groups.get(key)));
    }
    return out;
  }

  /** The options of {@code streamstats}. */
  record StreamOptions(
      boolean current,
      int window,
      boolean global,
      long timeWindowMicros,
      boolean resetOnChange,
      Predicate<Map<String, Object>> resetBefore,
      Predicate<Map<String, Object>> resetAfter) {
    static StreamOptions defaults() {
      return new StreamOptions(true, 0, true, 0, false, row -> false, row -> false);
    }

    StreamOptions current(boolean current) {
      return new StreamOptions(
          current, window, global, timeWindowMicros, resetOnChange, resetBefore, resetAfter);
    }

    StreamOptions window(int window, boolean global) {
      return new StreamOptions(
          current, window, global, timeWindowMicros, resetOnChange, resetBefore, resetAfter);
    }

    StreamOptions timeWindow(long micros) {
      return new StreamOptions(
          current, window, global, micros, resetOnChange, resetBefore, resetAfter);
    }

    StreamOptions resets(
        boolean onChange,
        Predicate<Map<String, Object>> before,
        Predicate<Map<String, Object>> after) {
      return new StreamOptions(current, window, global, timeWindowMicros, onChange, before, after);
    }

    boolean windowed() {
      return window > 0 || timeWindowMicros > 0;
    }
  }

  private record Entry(Map<String, Object> row, List<Object> key) {}

  /**
   * {@code streamstats}: per row of a group, its functions over the group's rows so far (this one
   * too unless {@code current=false}); with {@code window=N} over the last N rows of the stream
   * ({@code global}) or of the group that are in the group; with {@code time_window} over those
   * less than the span away in time (a row without a time is near none); {@code reset_on_change}
   * (the group differs from the previous grouped row's), {@code reset_before} (before the row's
   * own), {@code reset_after} (after it) start every group afresh.
   */
  static List<Map<String, Object>> streamstats(
      List<Map<String, Object>> rows, String calls, List<String> by, StreamOptions options) {
    List<PlainStats.Call> parsed = PlainStats.Call.parse(calls);
    Map<List<Object>, List<Map<String, Object>>> running = new HashMap<>();
    ArrayDeque<Entry> global = new ArrayDeque<>();
    Map<List<Object>, ArrayDeque<Entry>> perGroup = new HashMap<>();
    List<Object> previous = null;
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      List<Object> key = firstKey(row, by);
      if (key == null) {
        out.add(row);
        continue;
      }
      if ((options.resetOnChange() && previous != null && !previous.equals(key))
          || options.resetBefore().test(row)) {
        running.clear();
        global.clear();
        perGroup.clear();
      }
      previous = key;
      List<Map<String, Object>> over = new ArrayList<>();
      if (options.windowed()) {
        ArrayDeque<Entry> window =
            options.global() ? global : perGroup.computeIfAbsent(key, k -> new ArrayDeque<>());
        if (options.timeWindowMicros() > 0) {
          long time = PlainStats.time(row);
          window.removeIf(
              e ->
                  time == Long.MIN_VALUE
                      || PlainStats.time(e.row()) == Long.MIN_VALUE
                      || Math.abs(time - PlainStats.time(e.row())) >= options.timeWindowMicros());
        }
        Entry entry = new Entry(row, key);
        if (options.current()) {
          push(window, entry, options.window());
        }
        window.stream().filter(e -> e.key().equals(key)).forEach(e -> over.add(e.row()));
        if (!options.current()) {
          push(window, entry, options.window());
        }
      } else {
        List<Map<String, Object>> group = running.computeIfAbsent(key, k -> new ArrayList<>());
        if (options.current()) {
          group.add(row);
        }
        over.addAll(group);
        if (!options.current()) {
          group.add(row);
        }
      }
      out.add(withResults(row, parsed, over));
      if (options.resetAfter().test(row)) {
        running.clear();
        global.clear();
        perGroup.clear();
      }
    }
    return out;
  }

  private static void push(ArrayDeque<Entry> window, Entry entry, int size) {
    window.addLast(entry);
    if (size > 0 && window.size() > size) {
      window.removeFirst();
    }
  }

  /** A row's first value of {@code field} as a number, or null. */
  private static BigDecimal number(Map<String, Object> row, String field) {
    List<Object> values = PlainStats.values(row, field);
    return values.isEmpty() ? null : PlainStats.number(values.get(0), field);
  }

  private static Map<String, Object> with(Map<String, Object> row, String field, Object value) {
    Map<String, Object> out = new LinkedHashMap<>(row);
    if (value == null) {
      out.remove(field);
    } else {
      out.put(field, value);
    }
    return out;
  }

  /**
   * {@code accum}: the running total of the field's numbers into {@code as}; a row without a number
   * adds nothing and gets no total (a field accumulated into itself keeps what it held).
   */
  static List<Map<String, Object>> accum(List<Map<String, Object>> rows, String field, String as) {
    BigDecimal total = null;
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      BigDecimal number = number(row, field);
      if (number == null) {
        out.add(as.equals(field) ? row : with(row, as, null));
        continue;
      }
      total = total == null ? number : total.add(number);
      out.add(with(row, as, total));
    }
    return out;
  }

  /** {@code delta}: the number minus the number {@code p} rows earlier, where both are numbers. */
  static List<Map<String, Object>> delta(
      List<Map<String, Object>> rows, String field, String as, int p) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      BigDecimal now = number(rows.get(i), field);
      BigDecimal before = i >= p ? number(rows.get(i - p), field) : null;
      out.add(with(rows.get(i), as, now == null || before == null ? null : now.subtract(before)));
    }
    return out;
  }

  /**
   * {@code autoregress field p=from-to}: each {@code field_p<k>} the field's values k rows earlier.
   */
  static List<Map<String, Object>> autoregress(
      List<Map<String, Object>> rows, String field, int from, int to) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      Map<String, Object> row = rows.get(i);
      for (int k = from; k <= to; k++) {
        row = with(row, field + "_p" + k, i >= k ? rows.get(i - k).get(field) : null);
      }
      out.add(row);
    }
    return out;
  }

  /**
   * {@code trendline sma<period>}/{@code ema<period>}: over the field's numbers only (a row without
   * one gets nothing and is not in the window), from the {@code period}-th number on: the mean of
   * the last {@code period}; the ema starts at that mean and adds each number with weight {@code
   * 2/(period+1)}.
   */
  static List<Map<String, Object>> trendline(
      List<Map<String, Object>> rows, String type, int period, String field, String as) {
    List<Double> numbers = new ArrayList<>();
    double ema = 0;
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      BigDecimal number = number(row, field);
      if (number == null) {
        out.add(with(row, as, null));
        continue;
      }
      numbers.add(number.doubleValue());
      int n = numbers.size();
      if (n < period) {
        out.add(with(row, as, null));
        continue;
      }
      double mean =
          numbers.subList(n - period, n).stream().mapToDouble(Double::doubleValue).sum() / period;
      if (type.equals("ema")) {
        ema =
            n == period
                ? mean
                : 2d / (period + 1) * number.doubleValue() + (1 - 2d / (period + 1)) * ema;
        out.add(with(row, as, ema));
      } else {
        out.add(with(row, as, mean));
      }
    }
    return out;
  }

  /** {@code filldown}: a row without the field takes the last value seen in an earlier row. */
  static List<Map<String, Object>> filldown(List<Map<String, Object>> rows, List<String> fields) {
    Map<String, Object> last = new HashMap<>();
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      Map<String, Object> copy = new LinkedHashMap<>(row);
      for (String field : fields) {
        if (row.get(field) == null) {
          if (last.containsKey(field)) {
            copy.put(field, last.get(field));
          }
        } else {
          last.put(field, row.get(field));
        }
      }
      out.add(copy);
    }
    return out;
  }
}
