package io.quarry.server.lookups;

import java.util.List;

/**
 * RFC 4180 CSV lines: cells with a comma, quote or line break are quoted, quotes doubled. Lookup
 * tables are stored in it, and the search APIs answer {@code text/csv} with it.
 */
public final class Csv {
  private Csv() {}

  /** Appends one line (ending in CRLF); a null cell is empty. */
  public static void line(StringBuilder out, List<String> cells) {
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      String cell = cells.get(i);
      if (cell == null) {
        continue;
      }
      if (cell.indexOf(',') >= 0
          || cell.indexOf('"') >= 0
          || cell.indexOf('\n') >= 0
          || cell.indexOf('\r') >= 0) {
        out.append('"').append(cell.replace("\"", "\"\"")).append('"');
      } else {
        out.append(cell);
      }
    }
    out.append("\r\n");
  }
}
