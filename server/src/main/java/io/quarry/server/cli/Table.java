package io.quarry.server.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Prints rows as an aligned text table; long cells are cut with an ellipsis. */
final class Table {
  static final int MAX_CELL = 100;

  private Table() {}

  static void print(PrintStream out, List<String> fields, List<Map<String, String>> rows) {
    if (fields.isEmpty()) {
      out.println("(no results)");
      return;
    }
    List<Integer> widths = new ArrayList<>();
    for (String field : fields) {
      int width = field.length();
      for (Map<String, String> row : rows) {
        width = Math.max(width, cell(row.get(field)).length());
      }
      widths.add(width);
    }
    out.println(line(fields, widths));
    List<String> rules = new ArrayList<>();
    for (int width : widths) {
      rules.add("-".repeat(width));
    }
    out.println(line(rules, widths));
    for (Map<String, String> row : rows) {
      List<String> cells = new ArrayList<>();
      for (String field : fields) {
        cells.add(cell(row.get(field)));
      }
      out.println(line(cells, widths));
    }
    out.println("(" + rows.size() + (rows.size() == 1 ? " row)" : " rows)"));
  }

  private static String cell(String value) {
    if (value == null) {
      return "";
    }
    String flat = value.replace('\n', ' ').replace('\t', ' ');
    return flat.length() > MAX_CELL ? flat.substring(0, MAX_CELL - 1) + "…" : flat;
  }

  private static String line(List<String> cells, List<Integer> widths) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) {
        line.append("  ");
      }
      String cell = cells.get(i);
      line.append(cell);
      if (i < cells.size() - 1) {
        line.append(" ".repeat(widths.get(i) - cell.length()));
      }
    }
    return line.toString();
  }
}
