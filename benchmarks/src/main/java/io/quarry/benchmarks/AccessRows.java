package io.quarry.benchmarks;

import io.quarry.benchmarks.data.AccessLogGenerator;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.exec.MapRow;
import io.quarry.ql.exec.PageCollector;
import io.quarry.ql.exec.Row;
import io.quarry.server.sourcetype.Sourcetype;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rows of the reference dataset as a search sees them after field extraction: {@code _time}, {@code
 * clientip}, {@code status}, {@code bytes} (longs), {@code method}, {@code uri}, {@code uri_path},
 * {@code useragent} — the input of the operator and wire suites.
 */
final class AccessRows {
  static final int PAGE_SIZE = 1024;

  private AccessRows() {}

  /** {@code count} extracted rows of a dataset of that many lines (seed 42). */
  static List<Row> rows(int count) {
    AccessLogGenerator generator = new AccessLogGenerator(count, 42);
    Sourcetype access = Sourcetypes.builtIn().forName("access_combined");
    List<Row> rows = new ArrayList<>(count);
    int line = 0;
    for (String raw : generator.firstLines(count)) {
      Map<String, List<Object>> fields = access.extract(raw);
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("_time", generator.timeMicros(line++));
      row.put("clientip", first(fields, "clientip"));
      row.put("status", Long.parseLong(first(fields, "status")));
      String bytes = first(fields, "bytes");
      row.put("bytes", bytes.equals("-") ? 0L : Long.parseLong(bytes));
      row.put("method", first(fields, "method"));
      row.put("uri", first(fields, "uri"));
      row.put("uri_path", first(fields, "uri_path"));
      row.put("useragent", first(fields, "useragent"));
      rows.add(new MapRow(row));
    }
    return rows;
  }

  /** The rows as typed pages of {@link #PAGE_SIZE} rows. */
  static List<Page> pages(List<Row> rows) {
    List<Page> pages = new ArrayList<>();
    PageCollector collector = new PageCollector(PAGE_SIZE, pages::add);
    for (Row row : rows) {
      collector.accept(row);
    }
    collector.finish();
    return pages;
  }

  private static String first(Map<String, List<Object>> fields, String name) {
    List<Object> values = fields.get(name);
    return values == null || values.isEmpty() ? "" : values.getFirst().toString();
  }
}
