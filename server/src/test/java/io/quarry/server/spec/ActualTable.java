package io.quarry.server.spec;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.spec.SpecFile.Case;
import io.quarry.server.spec.SpecFile.Cell;
import io.quarry.server.spec.SpecFile.Column;
import io.quarry.server.spec.SpecFile.Type;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The table a search answered through {@code /api/v1/search} (JSON): the columns in the order they
 * first appear across pages with the type each page gave them, and the rows. {@link #mismatch}
 * compares it with a case's expected table, value by value and type by type.
 */
record ActualTable(
    List<String> columns, Map<String, String> types, List<Map<String, JsonNode>> rows) {

  /**
   * Reads the JSON body {@code {"pages": [{"fields": [...], "rows": [...]}], "messages": [...]}}.
   */
  static ActualTable of(JsonNode body) {
    List<String> columns = new ArrayList<>();
    Map<String, String> types = new LinkedHashMap<>();
    List<Map<String, JsonNode>> rows = new ArrayList<>();
    for (JsonNode page : body.path("pages")) {
      List<String> names = new ArrayList<>();
      for (JsonNode field : page.path("fields")) {
        String name = field.path("name").asText();
        names.add(name);
        if (!types.containsKey(name)) {
          columns.add(name);
          types.put(name, field.path("type").asText());
        } else if (!types.get(name).equals(field.path("type").asText())) {
          types.put(name, types.get(name) + "/" + field.path("type").asText());
        }
      }
      for (JsonNode values : page.path("rows")) {
        Map<String, JsonNode> row = new LinkedHashMap<>();
        for (int c = 0; c < names.size(); c++) {
          row.put(names.get(c), values.get(c));
        }
        rows.add(row);
      }
    }
    return new ActualTable(columns, types, rows);
  }

  /** Why this table is not the case's expected one, or null when it is. */
  String mismatch(Case expected) {
    List<String> expectedNames = expected.columns().stream().map(Column::name).toList();
    if (rows.size() != expected.rows().size()) {
      return "expected " + expected.rows().size() + " rows, got " + rows.size();
    }
    if (!rows.isEmpty() && !columns.equals(expectedNames)) {
      return "expected columns " + expectedNames + ", got " + columns;
    }
    if (expected.unordered()) {
      // Match rows as multisets: sort both sides by their canonical text.
      List<Integer> actualOrder = sortedIndexes(canonicalRows(expected.columns()));
      List<Integer> expectedOrder = sortedIndexes(canonicalExpected(expected));
      for (int r = 0; r < rows.size(); r++) {
        String problem =
            rowMismatch(
                expected.columns(),
                expected.rows().get(expectedOrder.get(r)),
                rows.get(actualOrder.get(r)));
        if (problem != null) {
          return "rows differ as a multiset (first difference after sorting both): " + problem;
        }
      }
      return null;
    }
    for (int r = 0; r < rows.size(); r++) {
      String problem = rowMismatch(expected.columns(), expected.rows().get(r), rows.get(r));
      if (problem != null) {
        return "row " + (r + 1) + ": " + problem;
      }
    }
    return null;
  }

  private static String rowMismatch(
      List<Column> columns, List<Cell> expected, Map<String, JsonNode> actual) {
    for (int c = 0; c < columns.size(); c++) {
      Column column = columns.get(c);
      JsonNode value = actual.get(column.name());
      String problem = cellMismatch(column.type(), expected.get(c), value);
      if (problem != null) {
        return column.name()
            + ": expected "
            + expected.get(c)
            + ", got "
            + render(value)
            + " ("
            + problem
            + ")";
      }
    }
    return null;
  }

  /** Why a value does not match an expected cell of a type, or null. */
  static String cellMismatch(Type type, Cell expected, JsonNode value) {
    boolean actualNull = value == null || value.isNull();
    if (expected.isNull() || actualNull) {
      return expected.isNull() == actualNull ? null : "null and a value";
    }
    switch (type) {
      case STRING -> {
        if (!value.isTextual()) {
          return "not a string";
        }
        return value.asText().equals(expected.text()) ? null : "different text";
      }
      case LONG -> {
        if (!value.isIntegralNumber()) {
          return "not a whole number (long)";
        }
        try {
          return value.bigIntegerValue().equals(new BigDecimal(expected.text()).toBigIntegerExact())
              ? null
              : "different number";
        } catch (NumberFormatException | ArithmeticException e) {
          return "expected cell is not a whole number";
        }
      }
      case DOUBLE -> {
        if (!value.isNumber()) {
          return "not a number";
        }
        return closeEnough(expected.text(), value.doubleValue()) ? null : "different number";
      }
      case BOOLEAN -> {
        if (!value.isBoolean()) {
          return "not a boolean";
        }
        return Boolean.toString(value.booleanValue()).equals(expected.text())
            ? null
            : "different boolean";
      }
      case TIME -> {
        if (!value.isTextual()) {
          return "not a timestamp";
        }
        Instant actualTime = instant(value.asText());
        Instant expectedTime = instant(expected.text());
        if (actualTime == null) {
          return "not an ISO-8601 timestamp";
        }
        return actualTime.equals(expectedTime) ? null : "different time";
      }
      case MV -> {
        List<String> actualValues = new ArrayList<>();
        if (value.isArray()) {
          value.forEach(element -> actualValues.add(text(element)));
        } else {
          actualValues.add(text(value)); // a single value is a one-value list
        }
        List<String> expectedValues =
            expected.values() != null ? expected.values() : List.of(expected.text());
        return actualValues.equals(expectedValues) ? null : "different values";
      }
    }
    throw new AssertionError(type);
  }

  /**
   * Doubles match within 1e-9 relative; an expected value written with six or more decimals also
   * matches anything that rounds to it.
   */
  static boolean closeEnough(String expectedText, double actual) {
    double expected;
    try {
      expected = Double.parseDouble(expectedText);
    } catch (NumberFormatException e) {
      return false;
    }
    double tolerance = 1e-9 * Math.max(1, Math.abs(expected));
    int dot = expectedText.indexOf('.');
    if (dot >= 0 && !expectedText.contains("e") && !expectedText.contains("E")) {
      int decimals = expectedText.length() - dot - 1;
      if (decimals >= 6) {
        tolerance = Math.max(tolerance, 0.5 * Math.pow(10, -decimals) * (1 + 1e-9));
      }
    }
    return Math.abs(expected - actual) <= tolerance;
  }

  /** An ISO-8601 instant with or without an offset (none: UTC), or null. */
  static Instant instant(String text) {
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      try {
        return Instant.parse(text.endsWith("Z") ? text : text + "Z");
      } catch (DateTimeParseException again) {
        return null;
      }
    }
  }

  /** A value's text as a multivalue element: numbers without a needless fraction. */
  private static String text(JsonNode value) {
    if (value == null || value.isNull()) {
      return "null";
    }
    if (value.isNumber()) {
      return value.isIntegralNumber()
          ? value.bigIntegerValue().toString()
          : BigDecimal.valueOf(value.doubleValue()).stripTrailingZeros().toPlainString();
    }
    return value.asText();
  }

  private List<String> canonicalRows(List<Column> columns) {
    List<String> canonical = new ArrayList<>();
    for (Map<String, JsonNode> row : rows) {
      StringBuilder key = new StringBuilder();
      for (Column column : columns) {
        JsonNode value = row.get(column.name());
        key.append(value == null || value.isNull() ? "null" : canonicalValue(column.type(), value))
            .append('\u0001');
      }
      canonical.add(key.toString());
    }
    return canonical;
  }

  private static List<String> canonicalExpected(Case expected) {
    List<String> canonical = new ArrayList<>();
    for (List<Cell> row : expected.rows()) {
      StringBuilder key = new StringBuilder();
      for (int c = 0; c < row.size(); c++) {
        Cell cell = row.get(c);
        String text;
        if (cell.isNull()) {
          text = "null";
        } else if (cell.values() != null) {
          text = String.join("\u0002", cell.values());
        } else if (expected.columns().get(c).type() == Type.DOUBLE) {
          text = roundedKey(Double.parseDouble(cell.text()));
        } else if (expected.columns().get(c).type() == Type.TIME) {
          Instant time = instant(cell.text());
          text = time == null ? cell.text() : time.toString();
        } else {
          text = cell.text();
        }
        key.append(text).append('\u0001');
      }
      canonical.add(key.toString());
    }
    return canonical;
  }

  private static String canonicalValue(Type type, JsonNode value) {
    return switch (type) {
      case DOUBLE -> value.isNumber() ? roundedKey(value.doubleValue()) : value.toString();
      case TIME -> {
        Instant time = instant(value.asText());
        yield time == null ? value.asText() : time.toString();
      }
      case MV -> {
        List<String> values = new ArrayList<>();
        if (value.isArray()) {
          value.forEach(element -> values.add(text(element)));
        } else {
          values.add(text(value));
        }
        yield String.join("\u0002", values);
      }
      default -> value.isTextual() ? value.asText() : text(value);
    };
  }

  /** Doubles sort by their value rounded to 6 significant digits, so near-equal values pair up. */
  private static String roundedKey(double value) {
    return String.format(java.util.Locale.ROOT, "%.6e", value);
  }

  private static List<Integer> sortedIndexes(List<String> keys) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      order.add(i);
    }
    order.sort(Comparator.comparing(keys::get));
    return order;
  }

  /** The table as text, typed header first, for failure messages. */
  String render() {
    StringBuilder out = new StringBuilder();
    List<String> header = new ArrayList<>();
    for (String column : columns) {
      header.add(column + ":" + types.get(column));
    }
    out.append(String.join(" | ", header)).append('\n');
    for (Map<String, JsonNode> row : rows) {
      List<String> cells = new ArrayList<>();
      for (String column : columns) {
        cells.add(render(row.get(column)));
      }
      out.append(String.join(" | ", cells)).append('\n');
    }
    return out.toString();
  }

  private static String render(JsonNode value) {
    if (value == null || value.isNull()) {
      return "null";
    }
    if (value.isTextual()) {
      return Cell.quoteIfNeeded(value.asText());
    }
    if (value.isArray()) {
      List<String> values = new ArrayList<>();
      value.forEach(
          element ->
              values.add(
                  element.isTextual() ? Cell.quoteIfNeeded(element.asText()) : element.toString()));
      return "[" + String.join(", ", values) + "]";
    }
    return value.toString();
  }

  /** A case's expected table as text, in the spec's own syntax. */
  static String render(Case expected) {
    StringBuilder out = new StringBuilder();
    out.append(String.join(" | ", expected.columns().stream().map(Column::toString).toList()))
        .append('\n');
    for (List<Cell> row : expected.rows()) {
      out.append(String.join(" | ", row.stream().map(Cell::toString).toList())).append('\n');
    }
    return out.toString();
  }
}
