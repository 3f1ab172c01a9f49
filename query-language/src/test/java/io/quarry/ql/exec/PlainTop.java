package io.quarry.ql.exec;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A plain Java {@code top}/{@code rare}, the independent oracle of {@code TopAggregationTest}: per
 * by-group (a combination of the by-fields' values; a row lacking one is in none) the rows that
 * have every field are its total; each combination of the fields' distinct values of such a row
 * counts once; the answer per by-group (in {@link PlainStats#KEY_ORDER}) is its {@code limit} most
 * (rare: least) common combinations, ties in value order, with the count and the percentage of the
 * group's total (rounded half up to six decimals), as Splunk's {@code top} documents.
 */
final class PlainTop {
  private PlainTop() {}

  /** The options of one call. */
  record Options(
      List<String> fields,
      List<String> by,
      boolean rare,
      long limit,
      String countField,
      String percentField,
      boolean showCount,
      boolean showPercent) {
    static Options of(List<String> fields, List<String> by, boolean rare) {
      return new Options(fields, by, rare, 10, "count", "percent", true, true);
    }

    Options limit(long limit) {
      return new Options(fields, by, rare, limit, countField, percentField, showCount, showPercent);
    }

    Options fields(String count, String percent, boolean showCount, boolean showPercent) {
      return new Options(fields, by, rare, limit, count, percent, showCount, showPercent);
    }
  }

  static List<Map<String, Object>> top(List<Map<String, Object>> rows, Options options) {
    TreeMap<List<Object>, Long> totals = new TreeMap<>(PlainStats.KEY_ORDER);
    TreeMap<List<Object>, Map<List<Object>, Long>> counts = new TreeMap<>(PlainStats.KEY_ORDER);
    rows:
    for (Map<String, Object> row : rows) {
      for (String field : options.fields()) {
        if (PlainStats.values(row, field).isEmpty()) {
          continue rows;
        }
      }
      for (List<Object> byKey : combinations(row, options.by())) {
        totals.merge(byKey, 1L, Long::sum);
        Map<List<Object>, Long> group = counts.computeIfAbsent(byKey, k -> new LinkedHashMap<>());
        for (List<Object> values : combinations(row, options.fields())) {
          group.merge(values, 1L, Long::sum);
        }
      }
    }
    List<Map<String, Object>> answer = new ArrayList<>();
    counts.forEach(
        (byKey, group) -> {
          Comparator<Map.Entry<List<Object>, Long>> byCount = Map.Entry.comparingByValue();
          List<Map.Entry<List<Object>, Long>> sorted = new ArrayList<>(group.entrySet());
          sorted.sort(
              (options.rare() ? byCount : byCount.reversed())
                  .thenComparing(Map.Entry::getKey, PlainStats.KEY_ORDER));
          long limit = options.limit() == 0 ? Long.MAX_VALUE : options.limit();
          for (Map.Entry<List<Object>, Long> entry :
              sorted.subList(0, (int) Math.min(limit, sorted.size()))) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (int i = 0; i < byKey.size(); i++) {
              out.put(options.by().get(i), byKey.get(i));
            }
            for (int i = 0; i < entry.getKey().size(); i++) {
              out.put(options.fields().get(i), entry.getKey().get(i));
            }
            if (options.showCount()) {
              out.put(options.countField(), entry.getValue());
            }
            if (options.showPercent()) {
              out.put(
                  options.percentField(),
                  BigDecimal.valueOf(entry.getValue() * 100)
                      .divide(BigDecimal.valueOf(totals.get(byKey)), 6, RoundingMode.HALF_UP));
            }
            answer.add(out);
          }
        });
    return answer;
  }

  /** Every combination of the fields' distinct values in {@code row} (one empty one for none). */
  private static List<List<Object>> combinations(Map<String, Object> row, List<String> fields) {
    List<List<Object>> keys = new ArrayList<>();
    keys.add(List.of());
    for (String field : fields) {
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
    return keys;
  }
}
