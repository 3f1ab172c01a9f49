package io.quarry.ql.exec;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A plain Java {@code stats}, the independent oracle of the page aggregations' tests: no class of
 * the engine is used, the call text is read with a regular expression, every function is written
 * out from its documented meaning over a group's rows (a row: field → a value or a {@code List} of
 * values; {@code _time} epoch microseconds) — Splunk's rules as Quarry documents them:
 *
 * <ul>
 *   <li>a value is a number when it is one, or text of the form {@code
 *       [+-]digits[.digits][e±digits]} ({@code 0123}, {@code +5}, {@code 1e3}, {@code .5}; not
 *       {@code -}, {@code x}, {@code 1.2.3}); the numeric functions skip the rest; {@code _time}
 *       reads as epoch seconds;
 *   <li>{@code count(f)}, {@code dc}, {@code values}, {@code list}, {@code mode} read values as
 *       text, each value of a multivalue on its own; {@code values} sorts the distinct texts;
 *   <li>{@code first}/{@code latest} keep the value of the greatest {@code _time}, {@code
 *       last}/{@code earliest} the smallest (of a multivalue, its first value);
 *   <li>{@code perc<N>}/{@code p<N>}/{@code median} interpolate linearly between the two nearest
 *       ranks ({@code N/100·(n−1)}); {@code var}/{@code stdev} are the sample's (none below two
 *       values), {@code varp}/{@code stdevp} the population's;
 *   <li>{@code rate}: (latest − earliest value) / their seconds apart, none when they are at one
 *       time;
 *   <li>groups: one per combination of the by-fields' values (a row lacking one is in none),
 *       ordered numbers first by value, then text case-insensitively, then exactly.
 * </ul>
 *
 * <p>Answers are {@link #canonical} (numbers as 12 significant digits, lists element-wise, a {@code
 * _time} column's microseconds as seconds) so they compare with the engine's whatever the column
 * types: whether a whole sum is a long is pinned by the hand-computed cases, not here.
 */
final class PlainStats {
  private static final Pattern NUMBER =
      Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");
  private static final Pattern CALL =
      Pattern.compile(
          "(\\w+)(?:\\(([\\w*]*)\\))?(?:\\s+AS\\s+([\\w*]+))?", Pattern.CASE_INSENSITIVE);
  private static final MathContext DIGITS = new MathContext(12);

  private PlainStats() {}

  /**
   * One call of {@code stats}: its function, its field (null: none), its output name; {@code
   * noneWithoutValues}: no answer at all (not a count of 0) for a group without a value of the
   * field, as the calls a wildcard stands for answer.
   */
  record Call(String function, String field, String name, boolean noneWithoutValues) {
    Call(String function, String field, String name) {
      this(function, field, name, false);
    }

    static List<Call> parse(String calls) {
      List<Call> parsed = new ArrayList<>();
      for (String text : calls.split(",")) {
        Matcher m = CALL.matcher(text.strip());
        if (!m.matches()) {
          throw new IllegalArgumentException(text);
        }
        String field = m.group(2) == null || m.group(2).isEmpty() ? null : m.group(2);
        String name =
            m.group(3) != null
                ? m.group(3)
                : field == null ? m.group(1) : m.group(1) + "(" + field + ")";
        parsed.add(new Call(m.group(1).toLowerCase(java.util.Locale.ROOT), field, name));
      }
      return parsed;
    }
  }

  /**
   * {@code stats <calls> by <by>} over {@code rows}: a row per group in group order, the by-fields
   * then each call's answer, a call without an answer left out; without by-fields one row even for
   * no input.
   */
  static List<Map<String, Object>> stats(
      List<Map<String, Object>> rows, String calls, List<String> by) {
    return stats(rows, Call.parse(calls), by);
  }

  /** As above, of calls already read. */
  static List<Map<String, Object>> stats(
      List<Map<String, Object>> rows, List<Call> parsed, List<String> by) {
    TreeMap<List<Object>, List<Map<String, Object>>> groups = new TreeMap<>(KEY_ORDER);
    if (by.isEmpty()) {
      groups.put(List.of(), new ArrayList<>(rows));
    }
    for (Map<String, Object> row : rows) {
      if (by.isEmpty()) {
        continue;
      }
      List<List<Object>> keys = new ArrayList<>();
      keys.add(List.of());
      for (String field : by) {
        List<List<Object>> longer = new ArrayList<>();
        for (String value : distinctTexts(row, field)) {
          for (List<Object> key : keys) {
            List<Object> next = new ArrayList<>(key);
            next.add(value);
            longer.add(next);
          }
        }
        keys = longer;
      }
      for (List<Object> key : keys) {
        groups.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
      }
    }
    List<Map<String, Object>> answer = new ArrayList<>();
    groups.forEach(
        (key, group) -> {
          Map<String, Object> out = new LinkedHashMap<>();
          for (int i = 0; i < by.size(); i++) {
            out.put(by.get(i), key.get(i));
          }
          for (Call call : parsed) {
            if (call.noneWithoutValues() && texts(group, call.field()).isEmpty()) {
              continue;
            }
            Object value = compute(call.function(), call.field(), group);
            if (value != null) {
              out.put(call.name(), value);
            }
          }
          answer.add(canonical(out));
        });
    return answer;
  }

  /** The values of {@code field} in {@code row}: none, one, or a multivalue's each. */
  static List<Object> values(Map<String, Object> row, String field) {
    Object value = row.get(field);
    if (value == null) {
      return List.of();
    }
    return value instanceof List<?> list ? List.copyOf(list) : List.of(value);
  }

  /** The distinct texts of {@code field}'s values in {@code row}, in order: a group key's parts. */
  static Set<String> distinctTexts(Map<String, Object> row, String field) {
    Set<String> texts = new LinkedHashSet<>();
    values(row, field).forEach(value -> texts.add(text(value, field)));
    return texts;
  }

  /** A value as a number (epoch seconds for {@code _time}), or null when it is not one. */
  static BigDecimal number(Object value, String field) {
    if ("_time".equals(field) && value instanceof Long micros) {
      return BigDecimal.valueOf(micros, 6);
    }
    if (value instanceof Long l) {
      return BigDecimal.valueOf(l);
    }
    if (value instanceof BigDecimal decimal) { // an answer of this oracle read again
      return decimal;
    }
    if (value instanceof Double d) {
      return new BigDecimal(Double.toString(d));
    }
    if (value instanceof String s && NUMBER.matcher(s).matches()) {
      return new BigDecimal(s.startsWith("+") ? s.substring(1) : s);
    }
    return null;
  }

  /** A value as text ({@code _time} as epoch seconds). */
  static String text(Object value, String field) {
    if (value instanceof BigDecimal decimal) {
      return decimal.stripTrailingZeros().toPlainString();
    }
    if ("_time".equals(field) && value instanceof Long micros) {
      return BigDecimal.valueOf(micros, 6).stripTrailingZeros().toPlainString();
    }
    return String.valueOf(value);
  }

  private static List<BigDecimal> numbers(List<Map<String, Object>> group, String field) {
    List<BigDecimal> numbers = new ArrayList<>();
    for (Map<String, Object> row : group) {
      for (Object value : values(row, field)) {
        BigDecimal number = number(value, field);
        if (number != null) {
          numbers.add(number);
        }
      }
    }
    return numbers;
  }

  private static List<String> texts(List<Map<String, Object>> group, String field) {
    List<String> texts = new ArrayList<>();
    for (Map<String, Object> row : group) {
      for (Object value : values(row, field)) {
        texts.add(text(value, field));
      }
    }
    return texts;
  }

  /** The answer of {@code function(field)} over one group's rows, null for none. */
  static Object compute(String function, String field, List<Map<String, Object>> group) {
    if (function.equals("median")) {
      return percentile(numbers(group, field), 50);
    }
    if (function.matches("(perc|p)\\d+")) {
      return percentile(numbers(group, field), Integer.parseInt(function.replaceAll("\\D", "")));
    }
    List<BigDecimal> numbers = numbers(group, field);
    return switch (function) {
      case "count" -> field == null ? (long) group.size() : (long) texts(group, field).size();
      case "dc", "estdc" -> (long) new LinkedHashSet<>(texts(group, field)).size();
      case "values" -> {
        List<String> sorted = new ArrayList<>(new java.util.TreeSet<>(texts(group, field)));
        yield sorted.isEmpty() ? null : sorted.size() == 1 ? sorted.get(0) : sorted;
      }
      case "list" -> {
        List<String> texts = texts(group, field);
        List<String> kept = texts.subList(0, Math.min(100, texts.size()));
        yield kept.isEmpty() ? null : kept.size() == 1 ? kept.get(0) : List.copyOf(kept);
      }
      case "mode" -> mode(group, field);
      case "sum" ->
          numbers.isEmpty() ? null : numbers.stream().reduce(BigDecimal.ZERO, BigDecimal::add);
      case "avg", "mean" ->
          numbers.isEmpty()
              ? null
              : numbers.stream()
                  .reduce(BigDecimal.ZERO, BigDecimal::add)
                  .divide(BigDecimal.valueOf(numbers.size()), MathContext.DECIMAL64);
      // no number at all: the texts compared lexicographically (Splunk: "as numbers if possible")
      case "min" ->
          numbers.isEmpty()
              ? texts(group, field).stream().min(Comparator.naturalOrder()).orElse(null)
              : numbers.stream().min(Comparator.naturalOrder()).orElseThrow();
      case "max" ->
          numbers.isEmpty()
              ? texts(group, field).stream().max(Comparator.naturalOrder()).orElse(null)
              : numbers.stream().max(Comparator.naturalOrder()).orElseThrow();
      case "range" ->
          numbers.isEmpty()
              ? null
              : numbers.stream()
                  .max(Comparator.naturalOrder())
                  .orElseThrow()
                  .subtract(numbers.stream().min(Comparator.naturalOrder()).orElseThrow());
      case "sumsq" ->
          numbers.isEmpty()
              ? null
              : numbers.stream().map(n -> n.multiply(n)).reduce(BigDecimal.ZERO, BigDecimal::add);
      case "var" -> numbers.size() < 2 ? null : squaredDeviations(numbers) / (numbers.size() - 1);
      case "varp" -> numbers.isEmpty() ? null : squaredDeviations(numbers) / numbers.size();
      case "stdev" ->
          numbers.size() < 2 ? null : Math.sqrt(squaredDeviations(numbers) / (numbers.size() - 1));
      case "stdevp" ->
          numbers.isEmpty() ? null : Math.sqrt(squaredDeviations(numbers) / numbers.size());
      case "first", "latest" -> timed(group, field, true, false);
      case "last", "earliest" -> timed(group, field, false, false);
      case "latest_time" -> timed(group, field, true, true);
      case "earliest_time" -> timed(group, field, false, true);
      case "rate" -> rate(group, field);
      default -> throw new IllegalArgumentException("no oracle for " + function);
    };
  }

  private static double squaredDeviations(List<BigDecimal> numbers) {
    BigDecimal mean =
        numbers.stream()
            .reduce(BigDecimal.ZERO, BigDecimal::add)
            .divide(BigDecimal.valueOf(numbers.size()), MathContext.DECIMAL128);
    return numbers.stream()
        .map(n -> n.subtract(mean).pow(2))
        .reduce(BigDecimal.ZERO, BigDecimal::add)
        .doubleValue();
  }

  private static Object percentile(List<BigDecimal> numbers, int percent) {
    if (numbers.isEmpty()) {
      return null;
    }
    List<BigDecimal> sorted = numbers.stream().sorted().toList();
    BigDecimal rank =
        BigDecimal.valueOf(percent)
            .multiply(BigDecimal.valueOf(sorted.size() - 1))
            .divide(BigDecimal.valueOf(100));
    int low = rank.intValue();
    BigDecimal fraction = rank.subtract(BigDecimal.valueOf(low));
    int high = fraction.signum() == 0 ? low : low + 1;
    return sorted.get(low).add(sorted.get(high).subtract(sorted.get(low)).multiply(fraction));
  }

  /**
   * The most frequent text; among equals, the first to reach that count reading the rows newest
   * first — the one whose oldest row is the newest — then the least text (docs/search.md).
   */
  private static String mode(List<Map<String, Object>> group, String field) {
    Map<String, Integer> counts = new HashMap<>();
    Map<String, Long> oldest = new HashMap<>();
    for (Map<String, Object> row : group) {
      for (Object value : values(row, field)) {
        String text = text(value, field);
        counts.merge(text, 1, Integer::sum);
        oldest.merge(text, time(row), Math::min);
      }
    }
    int most = counts.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    return counts.keySet().stream()
        .filter(text -> counts.get(text) == most)
        .min(
            java.util.Comparator.<String, Long>comparing(
                    oldest::get, java.util.Comparator.reverseOrder())
                .thenComparing(java.util.Comparator.naturalOrder()))
        .orElse(null);
  }

  /** A row's {@code _time} in epoch microseconds; {@code Long.MIN_VALUE} without one. */
  static long time(Map<String, Object> row) {
    return row.get("_time") instanceof Long micros ? micros : Long.MIN_VALUE;
  }

  /**
   * The row of {@code group} with the greatest (newest) or smallest {@code _time} among those with
   * the field, the first seen among equal times — but among rows without a time the last seen for
   * the smallest (the engine's rule, as the row engine had it: a row without a time is older than
   * every other, and of those each later one replaces the earlier).
   */
  private static Map<String, Object> newestOrOldest(
      List<Map<String, Object>> group, String field, boolean newest) {
    Map<String, Object> kept = null;
    long keptTime = 0;
    for (Map<String, Object> row : group) {
      if (values(row, field).isEmpty()) {
        continue;
      }
      long time = time(row);
      if (kept == null
          || (newest
              ? time > keptTime
              : time < keptTime || (time == keptTime && time == Long.MIN_VALUE))) {
        kept = row;
        keptTime = time;
      }
    }
    return kept;
  }

  private static Object timed(
      List<Map<String, Object>> group, String field, boolean newest, boolean answersTime) {
    Map<String, Object> row = newestOrOldest(group, field, newest);
    if (row == null) {
      return null;
    }
    if (answersTime) {
      return BigDecimal.valueOf(time(row), 6);
    }
    Object value = values(row, field).get(0);
    return "_time".equals(field) ? BigDecimal.valueOf((Long) value, 6) : value;
  }

  private static Object rate(List<Map<String, Object>> group, String field) {
    Map<String, Object> newest = newestOrOldest(group, field, true);
    Map<String, Object> oldest = newestOrOldest(group, field, false);
    if (newest == null || time(newest) == time(oldest)) {
      return null;
    }
    BigDecimal latest = number(values(newest, field).get(0), field);
    BigDecimal earliest = number(values(oldest, field).get(0), field);
    if (latest == null || earliest == null) {
      return null;
    }
    BigDecimal seconds = BigDecimal.valueOf(time(newest) - time(oldest), 6);
    return latest.subtract(earliest).divide(seconds, MathContext.DECIMAL64);
  }

  static final Comparator<Object> VALUE_ORDER =
      (a, b) -> {
        BigDecimal x = number(a, null);
        BigDecimal y = number(b, null);
        if (x != null && y != null) {
          return x.compareTo(y);
        }
        if (x != null || y != null) {
          return x != null ? -1 : 1;
        }
        int c = String.valueOf(a).compareToIgnoreCase(String.valueOf(b));
        return c != 0 ? c : String.valueOf(a).compareTo(String.valueOf(b));
      };

  /**
   * Group keys in order: value by value, numbers first by value, then text case-insensitively, then
   * exactly.
   */
  static final Comparator<List<Object>> KEY_ORDER =
      (a, b) -> {
        for (int i = 0; i < a.size(); i++) {
          int c = VALUE_ORDER.compare(a.get(i), b.get(i));
          if (c != 0) {
            return c;
          }
        }
        return 0;
      };

  /**
   * A row with every number (or text that is one) as a decimal of 12 significant digits without
   * trailing zeros, lists element by element: rows compare by value, whatever the column types and
   * the order sums were added in.
   */
  static Map<String, Object> canonical(Map<String, Object> row) {
    Map<String, Object> copy = new LinkedHashMap<>();
    row.forEach(
        (name, value) ->
            copy.put(
                name,
                canonicalValue(
                    "_time".equals(name) && value instanceof Long micros
                        ? BigDecimal.valueOf(micros, 6)
                        : value)));
    return copy;
  }

  static Object canonicalValue(Object value) {
    if (value instanceof List<?> list) {
      return list.stream().map(PlainStats::canonicalValue).toList();
    }
    BigDecimal number =
        value instanceof BigDecimal decimal
            ? decimal
            : value instanceof Double d
                ? (d.isNaN() || d.isInfinite() ? null : new BigDecimal(d))
                : number(value, null);
    if (number == null) {
      return value;
    }
    BigDecimal rounded = number.round(DIGITS).stripTrailingZeros();
    return rounded.signum() == 0 ? "0" : rounded.toPlainString();
  }

  /** Canonical rows of {@code rows}. */
  static List<Map<String, Object>> canonical(List<Map<String, Object>> rows) {
    return rows.stream().map(PlainStats::canonical).toList();
  }
}
