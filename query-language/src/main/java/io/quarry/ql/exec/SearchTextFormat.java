package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * How rows become search text, as Splunk's {@code format} and {@code return} write it: {@code
 * field="value"} with {@code "} and {@code \} escaped, a multivalue as {@code ( f="a" OR f="b" )},
 * fields starting with {@code _} left out, and a field named {@code search} or {@code query}
 * written as its value alone.
 */
public final class SearchTextFormat {
  /** The field {@code format} and {@code return} answer in. */
  public static final String SEARCH_FIELD = "search";

  private SearchTextFormat() {}

  /** A value as a quoted search value. */
  public static String quote(String value) {
    return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }

  /** The values of a column at a position as text (none when the column is absent or null). */
  public static List<String> texts(Page page, String column, int position) {
    int index = page.schema().indexOf(column);
    if (index < 0) {
      return List.of();
    }
    Block block = page.block(index);
    List<String> texts = new ArrayList<>();
    for (Object value : Values.valuesOf(block, position)) {
      if (value != null) {
        texts.add(text(column, value));
      }
    }
    return texts;
  }

  /** A value as text; {@code _time} (micros in pages) as epoch seconds. */
  static String text(String column, Object value) {
    if (column.equals(PageBuilder.TIME_FIELD) && value instanceof Long micros) {
      return Values.toText(TimeField.secondsOf(micros));
    }
    return Values.toText(value);
  }

  /** {@code name="v"}, or for several values {@code ( name="a" <mvsep> name="b" )}. */
  public static String term(String name, List<String> values, String mvsep, boolean raw) {
    List<String> terms = new ArrayList<>();
    for (String value : values) {
      terms.add(raw ? value : name + "=" + quote(value));
    }
    return terms.size() == 1 ? terms.get(0) : "( " + String.join(" " + mvsep + " ", terms) + " )";
  }

  /**
   * Splunk's {@code format} of rows: {@code rowPrefix row rowSep row … rowEnd}, each row {@code
   * colPrefix term colSep term … colEnd}; rows with no field left out; {@code emptyStr} when none
   * is left.
   */
  public static String format(
      List<Page> pages, long maxResults, String mvsep, List<String> delimiters, String emptyStr) {
    List<String> rows = new ArrayList<>();
    long seen = 0;
    for (Page page : pages) {
      List<String> columns = visibleColumns(page);
      for (int p = 0; p < page.positionCount(); p++) {
        if (maxResults > 0 && seen >= maxResults) {
          break;
        }
        seen++;
        List<String> terms = new ArrayList<>();
        for (String column : columns) {
          List<String> values = texts(page, column, p);
          if (!values.isEmpty()) {
            terms.add(term(column, values, mvsep, isRaw(column)));
          }
        }
        if (!terms.isEmpty()) {
          rows.add(
              delimiters.get(1)
                  + " "
                  + String.join(" " + delimiters.get(2) + " ", terms)
                  + " "
                  + delimiters.get(3));
        }
      }
    }
    if (rows.isEmpty()) {
      return emptyStr;
    }
    return delimiters.get(0)
        + " "
        + String.join(" " + delimiters.get(4) + " ", rows)
        + " "
        + delimiters.get(5);
  }

  /**
   * The search text a subsearch's rows stand for: a lone row holding only a {@code search} or
   * {@code query} field (what {@code format} and {@code return} answer) is that text; anything else
   * is formatted with Splunk's defaults ({@code NOT( )} for no rows).
   */
  public static String subsearchText(List<Page> pages) {
    long rows = pages.stream().mapToLong(Page::positionCount).sum();
    if (rows == 1) {
      for (Page page : pages) {
        if (page.positionCount() == 1) {
          Set<String> fields = new LinkedHashSet<>();
          for (String column : visibleColumns(page)) {
            if (!texts(page, column, 0).isEmpty()) {
              fields.add(column);
            }
          }
          if (fields.size() == 1 && isRaw(fields.iterator().next())) {
            return String.join(" ", texts(page, fields.iterator().next(), 0));
          }
        }
      }
    }
    return format(
        pages,
        0,
        io.quarry.ql.ast.FormatCommand.DEFAULT_MVSEP,
        io.quarry.ql.ast.FormatCommand.DEFAULT_DELIMITERS,
        io.quarry.ql.ast.FormatCommand.DEFAULT_EMPTY);
  }

  private static boolean isRaw(String column) {
    return column.equals(SEARCH_FIELD) || column.equals("query");
  }

  /** The columns format writes: not the internal ones ({@code _…}). */
  private static List<String> visibleColumns(Page page) {
    List<String> columns = new ArrayList<>();
    for (int c = 0; c < page.schema().size(); c++) {
      String name = page.schema().column(c).name();
      if (!name.startsWith("_")) {
        columns.add(name);
      }
    }
    return columns;
  }
}
