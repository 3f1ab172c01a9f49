package io.quarry.benchmarks;

import io.quarry.benchmarks.data.AccessLogGenerator;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.exec.PageBuilder;
import io.quarry.server.sourcetype.Sourcetype;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Rows of the reference dataset as a search sees them after field extraction: {@code _time}, {@code
 * clientip}, {@code status}, {@code bytes} (longs), {@code method}, {@code uri}, {@code uri_path},
 * {@code useragent} — as typed pages of {@value #PAGE_SIZE} rows, the input of the operator and
 * wire suites.
 */
final class AccessRows {
  static final int PAGE_SIZE = 1024;

  private static final List<String> NAMES =
      List.of("_time", "clientip", "status", "bytes", "method", "uri", "uri_path", "useragent");

  private AccessRows() {}

  /** {@code count} extracted rows of a dataset of that many lines (seed 42), as pages. */
  static List<Page> pages(int count) {
    AccessLogGenerator generator = new AccessLogGenerator(count, 42);
    Sourcetype access = Sourcetypes.builtIn().forName("access_combined");
    List<Page> pages = new ArrayList<>();
    List<List<List<Object>>> columns = newColumns();
    int line = 0;
    for (String raw : generator.firstLines(count)) {
      Map<String, List<Object>> fields = access.extract(raw);
      String bytes = first(fields, "bytes");
      List<Object> row =
          List.of(
              generator.timeMicros(line++),
              first(fields, "clientip"),
              Long.parseLong(first(fields, "status")),
              bytes.equals("-") ? 0L : Long.parseLong(bytes),
              first(fields, "method"),
              first(fields, "uri"),
              first(fields, "uri_path"),
              first(fields, "useragent"));
      for (int c = 0; c < NAMES.size(); c++) {
        columns.get(c).add(List.of(row.get(c)));
      }
      if (columns.get(0).size() == PAGE_SIZE) {
        pages.add(PageBuilder.toPage(NAMES, columns, PAGE_SIZE));
        columns = newColumns();
      }
    }
    if (!columns.get(0).isEmpty()) {
      pages.add(PageBuilder.toPage(NAMES, columns, columns.get(0).size()));
    }
    return pages;
  }

  private static List<List<List<Object>>> newColumns() {
    List<List<List<Object>>> columns = new ArrayList<>();
    for (int c = 0; c < NAMES.size(); c++) {
      columns.add(new ArrayList<>(PAGE_SIZE));
    }
    return columns;
  }

  private static String first(Map<String, List<Object>> fields, String name) {
    List<Object> values = fields.get(name);
    return values == null || values.isEmpty() ? "" : values.getFirst().toString();
  }
}
