package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Page;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random access-log-like rows for the aggregations' tests, as field → value maps ({@code List}: a
 * multivalue), and their pages built without the row engine ({@link TestPages}): {@code _time}
 * (epoch microseconds, distinct, ascending), {@code ip} (sometimes missing, sometimes two values),
 * {@code status} (a whole number or the text {@code 404}), {@code bytes} (a whole number, a
 * decimal, a number as text or {@code n/a}), {@code n} (a whole number, sometimes missing).
 */
final class RandomRows {
  private static final long SECOND = 1_000_000L;

  private RandomRows() {}

  static List<Map<String, Object>> of(Random random, int count) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("_time", 1_767_744_000L * SECOND + i * 250_000L + random.nextInt(2) * 125_000L);
      int ips = random.nextInt(8);
      if (ips > 0) {
        row.put(
            "ip",
            ips == 7
                ? List.of("10.0.0." + random.nextInt(3), "10.0.0." + random.nextInt(3))
                : "10.0.0." + random.nextInt(12));
      }
      row.put("status", random.nextBoolean() ? (Object) (long) (200 + random.nextInt(3)) : "404");
      row.put(
          "bytes",
          switch (random.nextInt(6)) {
            case 0 -> "n/a";
            case 1 -> random.nextInt(1000) + 0.25;
            case 2 -> Integer.toString(random.nextInt(1000));
            default -> (long) random.nextInt(1000);
          });
      if (random.nextInt(8) > 0) { // sometimes missing: a whole-number column with nulls
        row.put("n", (long) random.nextInt(100));
      }
      rows.add(row);
    }
    return rows;
  }

  /** {@code rows} cut into pages of 1–50 rows, each with a column per field of {@code fields}. */
  static List<Page> pages(List<Map<String, Object>> rows, List<String> fields, Random random) {
    List<Page> pages = new ArrayList<>();
    for (int from = 0; from < rows.size(); ) {
      int to = Math.min(rows.size(), from + 1 + random.nextInt(50));
      pages.add(TestPages.page(TestPages.cells(rows.subList(from, to)), fields));
      from = to;
    }
    return pages;
  }

  /** The rows as {@link Row}s (for tests of what reads rows: the count sources' segments). */
  static List<Row> asRows(List<Map<String, Object>> rows) {
    List<Row> out = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      List<Object> keysAndValues = new ArrayList<>();
      row.forEach(
          (name, value) -> {
            keysAndValues.add(name);
            keysAndValues.add(value);
          });
      out.add(TestRow.of("event", keysAndValues.toArray()));
    }
    return out;
  }
}
