package io.quarry.ql.builtins;

import java.util.ArrayList;
import java.util.List;

/**
 * RFC 4180 lines and cells: commas between cells, {@code "…"} around a cell that holds commas,
 * quotes or line ends, {@code ""} for a quote inside one; {@code \r\n} or {@code \n} ends a line.
 */
final class CsvCells {
  private CsvCells() {}

  /** The lines of {@code text}, each a list of its cells (a trailing line end adds no line). */
  static List<List<String>> parse(String text) {
    List<List<String>> lines = new ArrayList<>();
    List<String> line = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    boolean any = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      any = true;
      if (quoted) {
        if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
          cell.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          cell.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        line.add(cell.toString());
        cell.setLength(0);
      } else if (c == '\n' || c == '\r') {
        if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
          i++;
        }
        line.add(cell.toString());
        cell.setLength(0);
        lines.add(line);
        line = new ArrayList<>();
        any = false;
      } else {
        cell.append(c);
      }
    }
    if (quoted) {
      throw new IllegalArgumentException("CSV data ends inside a quoted cell");
    }
    if (any) {
      line.add(cell.toString());
      lines.add(line);
    }
    return lines;
  }
}
