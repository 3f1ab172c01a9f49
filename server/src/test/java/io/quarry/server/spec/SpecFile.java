package io.quarry.server.spec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One {@code *.spl-spec} file: golden SPL cases, each a query and the typed table Splunk answers
 * (the grammar is in {@code src/test/resources/spl-spec/README.md}).
 *
 * <pre>
 * file    := (comment | blank | case)*
 * case    := "=== " name NL (comment | "query:" text NL continuation* | "options:" option ("," option)* NL
 *            | "error:" code NL)* header NL row*        -- the case ends at the next "===" or the end
 * continuation := ("  " | "|") text NL                  -- joined to the query with one space
 * header  := column (" | " column)*     column := name ":" type   (split at the last ':')
 * type    := string | long | double | boolean | time | mv
 * row     := cell (" | " cell)*         cell := null | "" | "quoted \"text\"" | [a, b, …] | text
 * </pre>
 */
record SpecFile(Path path, List<Case> cases) {
  /** The column types of an expected table. */
  enum Type {
    STRING,
    LONG,
    DOUBLE,
    BOOLEAN,
    TIME,
    MV;

    static Type of(String name, String where) {
      try {
        return valueOf(name.strip().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            where
                + ": unknown column type '"
                + name
                + "' (string, long, double, boolean, time, mv)");
      }
    }
  }

  /** One expected column. */
  record Column(String name, Type type) {
    @Override
    public String toString() {
      return name + ":" + type.name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * One expected cell: null, a text (as written, quotes removed) or a list (an {@code mv} cell).
   */
  record Cell(String text, List<String> values) {
    static final Cell NULL = new Cell(null, null);

    boolean isNull() {
      return text == null && values == null;
    }

    @Override
    public String toString() {
      if (isNull()) {
        return "null";
      }
      if (values != null) {
        return "[" + String.join(", ", values.stream().map(Cell::quoteIfNeeded).toList()) + "]";
      }
      return quoteIfNeeded(text);
    }

    static String quoteIfNeeded(String text) {
      boolean plain =
          !text.isEmpty()
              && !text.equals("null")
              && text.strip().equals(text)
              && text.chars().noneMatch(c -> c == '|' || c == '"' || c == ',' || c == '\n')
              && !text.startsWith("[");
      return plain
          ? text
          : '"' + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + '"';
    }
  }

  /** One case: its name, query, options and the table (or error code) it must answer. */
  record Case(
      String file,
      String name,
      int line,
      String query,
      boolean unordered,
      String error,
      List<Column> columns,
      List<List<Cell>> rows) {
    String displayName() {
      return file + ": " + name;
    }
  }

  static SpecFile read(Path path) throws IOException {
    String file = path.getFileName().toString();
    List<String> lines = Files.readAllLines(path, StandardCharsets.UTF_8);
    List<Case> cases = new ArrayList<>();
    Set<String> names = new HashSet<>();
    int i = 0;
    while (i < lines.size()) {
      String line = lines.get(i);
      if (line.isBlank() || line.startsWith("#")) {
        i++;
        continue;
      }
      if (!line.startsWith("=== ")) {
        throw new IllegalArgumentException(
            file + ":" + (i + 1) + ": expected '=== <case name>', found '" + line + "'");
      }
      int start = i;
      String name = line.substring(4).strip();
      if (!name.matches("[A-Za-z0-9_.-]+") || !names.add(name)) {
        throw new IllegalArgumentException(
            file + ":" + (i + 1) + ": case names are [A-Za-z0-9_.-]+ and unique: '" + name + "'");
      }
      i++;
      StringBuilder query = null;
      boolean unordered = false;
      String error = null;
      List<Column> columns = null;
      List<List<Cell>> rows = new ArrayList<>();
      for (; i < lines.size() && !lines.get(i).startsWith("=== "); i++) {
        String text = lines.get(i);
        String where = file + ":" + (i + 1);
        if (text.startsWith("#")) {
          continue;
        }
        if (columns == null && query != null && (text.startsWith("  ") || text.startsWith("|"))) {
          query.append(' ').append(text.strip());
        } else if (text.isBlank()) {
          continue;
        } else if (columns == null && text.startsWith("query:")) {
          query = new StringBuilder(text.substring("query:".length()).strip());
        } else if (columns == null && text.startsWith("options:")) {
          for (String option : text.substring("options:".length()).split(",")) {
            switch (option.strip()) {
              case "unordered" -> unordered = true;
              case "ordered" -> unordered = false;
              default ->
                  throw new IllegalArgumentException(where + ": unknown option '" + option + "'");
            }
          }
        } else if (columns == null && text.startsWith("error:")) {
          error = text.substring("error:".length()).strip();
        } else if (columns == null) {
          columns = new ArrayList<>();
          for (String cell : cells(text, where)) {
            int colon = cell.lastIndexOf(':');
            if (colon <= 0) {
              throw new IllegalArgumentException(
                  where + ": header cell '" + cell + "' is not name:type");
            }
            String columnName = cell.substring(0, colon).strip();
            if (columnName.startsWith("\"")
                && columnName.endsWith("\"")
                && columnName.length() > 1) {
              columnName = columnName.substring(1, columnName.length() - 1);
            }
            columns.add(new Column(columnName, Type.of(cell.substring(colon + 1), where)));
          }
        } else {
          List<String> raw = cells(text, where);
          if (raw.size() != columns.size()) {
            throw new IllegalArgumentException(
                where + ": " + raw.size() + " cells for " + columns.size() + " columns");
          }
          List<Cell> row = new ArrayList<>(raw.size());
          for (int c = 0; c < raw.size(); c++) {
            row.add(cell(raw.get(c), columns.get(c).type(), where));
          }
          rows.add(row);
        }
      }
      if (query == null || query.isEmpty()) {
        throw new IllegalArgumentException(
            file + ":" + (start + 1) + ": case '" + name + "' has no query");
      }
      if ((error == null) == (columns == null)) {
        throw new IllegalArgumentException(
            file + ":" + (start + 1) + ": case '" + name + "' needs either a table or an error:");
      }
      cases.add(
          new Case(
              file,
              name,
              start + 1,
              query.toString(),
              unordered,
              error,
              columns == null ? List.of() : List.copyOf(columns),
              List.copyOf(rows)));
    }
    return new SpecFile(path, List.copyOf(cases));
  }

  /** A row split at '|' outside quotes and brackets, each cell stripped. */
  static List<String> cells(String line, String where) {
    List<String> cells = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    int brackets = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        cell.append(c);
        if (c == '\\' && i + 1 < line.length()) {
          cell.append(line.charAt(++i));
        } else if (c == '"') {
          quoted = false;
        }
      } else if (c == '"') {
        quoted = true;
        cell.append(c);
      } else if (c == '[') {
        brackets++;
        cell.append(c);
      } else if (c == ']') {
        brackets--;
        cell.append(c);
      } else if (c == '|' && brackets == 0) {
        cells.add(cell.toString().strip());
        cell.setLength(0);
      } else {
        cell.append(c);
      }
    }
    if (quoted || brackets != 0) {
      throw new IllegalArgumentException(where + ": unbalanced quotes or brackets: " + line);
    }
    cells.add(cell.toString().strip());
    return cells;
  }

  private static Cell cell(String text, Type type, String where) {
    if (text.equals("null")) {
      return Cell.NULL;
    }
    if (type == Type.MV && text.startsWith("[") && text.endsWith("]")) {
      String inside = text.substring(1, text.length() - 1).strip();
      List<String> values = new ArrayList<>();
      if (!inside.isEmpty()) {
        for (String value : splitList(inside, where)) {
          values.add(unquote(value.strip(), where));
        }
      }
      return new Cell(null, List.copyOf(values));
    }
    return new Cell(unquote(text, where), null);
  }

  /** The elements of a list cell, split at ',' outside quotes. */
  private static List<String> splitList(String inside, String where) {
    List<String> values = new ArrayList<>();
    StringBuilder value = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < inside.length(); i++) {
      char c = inside.charAt(i);
      if (quoted && c == '\\' && i + 1 < inside.length()) {
        value.append(c).append(inside.charAt(++i));
      } else if (c == '"') {
        quoted = !quoted;
        value.append(c);
      } else if (c == ',' && !quoted) {
        values.add(value.toString());
        value.setLength(0);
      } else {
        value.append(c);
      }
    }
    values.add(value.toString());
    return values;
  }

  private static String unquote(String text, String where) {
    if (!(text.length() >= 2 && text.startsWith("\"") && text.endsWith("\""))) {
      return text;
    }
    StringBuilder out = new StringBuilder();
    for (int i = 1; i < text.length() - 1; i++) {
      char c = text.charAt(i);
      if (c == '\\') {
        char next = text.charAt(++i);
        out.append(
            switch (next) {
              case 'n' -> '\n';
              case 't' -> '\t';
              case '\\', '"' -> next;
              default -> throw new IllegalArgumentException(where + ": unknown escape \\" + next);
            });
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
