package io.quarry.ql.exec;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Plain Java {@code sort} and {@code dedup} over rows (field → a value or a {@code List}), the
 * independent oracle of {@code PageReduceTest}, from Splunk's documented orders: a key is a row's
 * first value of the field; {@code auto} and {@code num()} put numbers first, by value, then text
 * by code unit (upper case first); {@code str()} compares every value as text; {@code num()} treats
 * text that is no number as missing; a missing key sorts last in either direction; ties keep the
 * input order; {@code sort N} and {@code limit=N} keep the first N (0: all). {@code dedup} keeps
 * the first N rows of each combination of the fields' values (a multivalue as its whole list),
 * drops a row missing a field unless {@code keepempty=true}, and with {@code consecutive=true} only
 * shortens runs of equal adjacent rows.
 */
final class PlainOrder {
  private static final Pattern KEY =
      Pattern.compile("([+-]?)(?:(num|str|auto)\\((\\w+)\\)|(\\w+))");

  private PlainOrder() {}

  private record Key(String field, boolean descending, String mode) {}

  /** {@code sort <arguments>} over the rows. */
  static List<Map<String, Object>> sort(List<Map<String, Object>> rows, String arguments) {
    long limit = 10_000;
    List<Key> keys = new ArrayList<>();
    List<String> tokens = List.of(arguments.replace(",", " ").trim().split("\\s+"));
    String last = tokens.get(tokens.size() - 1);
    boolean reversed = tokens.size() > 1 && (last.equals("d") || last.equals("desc"));
    for (String token : reversed ? tokens.subList(0, tokens.size() - 1) : tokens) {
      if (token.matches("\\d+") && keys.isEmpty()) {
        limit = Long.parseLong(token);
      } else if (token.startsWith("limit=")) {
        limit = Long.parseLong(token.substring("limit=".length()));
      } else {
        Matcher m = KEY.matcher(token);
        if (!m.matches()) {
          throw new IllegalArgumentException(token);
        }
        String field = m.group(3) != null ? m.group(3) : m.group(4);
        keys.add(
            new Key(
                field,
                m.group(1).equals("-") != reversed,
                m.group(2) == null ? "auto" : m.group(2)));
      }
    }
    Comparator<Map<String, Object>> order = (a, b) -> 0;
    for (Key key : keys) {
      order = order.thenComparing((a, b) -> compare(key, first(a, key), first(b, key)));
    }
    List<Map<String, Object>> sorted = new ArrayList<>(rows);
    sorted.sort(order); // stable: ties keep the input order
    return limit == 0 ? sorted : sorted.subList(0, (int) Math.min(limit, sorted.size()));
  }

  private static Object first(Map<String, Object> row, Key key) {
    List<Object> values = PlainStats.values(row, key.field());
    Object value = values.isEmpty() ? null : values.get(0);
    if (value != null && key.mode().equals("num") && PlainStats.number(value, null) == null) {
      return null;
    }
    return value;
  }

  private static int compare(Key key, Object a, Object b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : 1) : -1;
    }
    int c;
    BigDecimal x = key.mode().equals("str") ? null : PlainStats.number(a, null);
    BigDecimal y = key.mode().equals("str") ? null : PlainStats.number(b, null);
    if (x != null && y != null) {
      c = x.compareTo(y);
    } else if (x != null || y != null) {
      c = x != null ? -1 : 1;
    } else {
      c = text(a).compareTo(text(b));
    }
    return key.descending() ? -c : c;
  }

  private static String text(Object value) {
    if (value instanceof Double d && d == Math.rint(d) && !d.isInfinite()) {
      return Long.toString(d.longValue());
    }
    return String.valueOf(value);
  }

  /** {@code dedup [count] fields [keepempty=true] [consecutive=true]} over the rows. */
  static List<Map<String, Object>> dedup(
      List<Map<String, Object>> rows,
      int count,
      List<String> fields,
      boolean keepEmpty,
      boolean consecutive) {
    Map<List<List<String>>, Integer> seen = new HashMap<>();
    List<List<String>> previous = null;
    int run = 0;
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      List<List<String>> key = new ArrayList<>();
      boolean missing = false;
      for (String field : fields) {
        List<Object> values = PlainStats.values(row, field);
        missing |= values.isEmpty();
        key.add(values.stream().map(PlainOrder::text).toList());
      }
      if (missing) {
        if (keepEmpty) {
          out.add(row);
        }
        continue;
      }
      if (consecutive) {
        run = key.equals(previous) ? run + 1 : 1;
        previous = key;
        if (run <= count) {
          out.add(row);
        }
      } else if (seen.merge(key, 1, Integer::sum) <= count) {
        out.add(row);
      }
    }
    return out;
  }
}
