package io.quarry.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;

/**
 * A page of a job's results with their types.
 *
 * @param columns the result columns
 * @param rows the rows of this page: {@code Long}, {@code Double}, {@code Boolean}, {@code String}
 *     (times as ISO-8601 text), {@code List} for multivalues, or null
 * @param offset the first row's position in all results
 * @param total the rows the job has so far
 * @param preview whether the job was still running (more rows may come)
 */
public record TypedResults(
    List<Column> columns, List<List<Object>> rows, long offset, long total, boolean preview) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A result column: its name and type ({@code long}, {@code double}, {@code boolean}, {@code
   * string}, {@code timestamp}).
   */
  public record Column(String name, String type) {}

  public TypedResults {
    columns = List.copyOf(columns);
    rows = List.copyOf(rows);
  }

  /**
   * A page of Quarry's JSON ({@code "fields": [{"name", "type"}], "rows": [[…]]}), numbers typed by
   * their column: {@code Long} for {@code long}, {@code Double} for {@code double} (the texts
   * {@code inf}, {@code -inf} and {@code nan} too: JSON has no such number); a multivalue (a JSON
   * array) a {@code List} of values so typed.
   */
  static TypedResults fromJson(JsonNode page, long offset, long total, boolean preview) {
    List<Column> columns = new ArrayList<>();
    for (JsonNode field : page.path("fields")) {
      columns.add(new Column(field.path("name").asText(), field.path("type").asText()));
    }
    List<List<Object>> rows = new ArrayList<>();
    for (JsonNode row : page.path("rows")) {
      List<Object> values = new ArrayList<>(row.size());
      for (int i = 0; i < row.size(); i++) {
        JsonNode value = row.get(i);
        String type = i < columns.size() ? columns.get(i).type() : "";
        if (value.isArray()) { // a multivalue: values of the column's type
          List<Object> multivalue = new ArrayList<>(value.size());
          for (JsonNode one : value) {
            multivalue.add(typed(one, type));
          }
          values.add(java.util.Collections.unmodifiableList(multivalue));
        } else {
          values.add(typed(value, type));
        }
      }
      rows.add(values);
    }
    return new TypedResults(columns, rows, offset, total, preview);
  }

  private static Object typed(JsonNode value, String type) {
    if (value.isNumber() && type.equals("long")) {
      return value.longValue();
    }
    if (type.equals("double")) {
      if (value.isNumber()) {
        return value.doubleValue();
      }
      Double nonFinite = value.isTextual() ? nonFinite(value.textValue()) : null;
      if (nonFinite != null) {
        return nonFinite;
      }
    }
    return JSON.convertValue(value, Object.class);
  }

  /**
   * The number a double column's text stands for where JSON has none: the server writes an infinity
   * as {@code inf}/{@code -inf} and a NaN as {@code nan}, the Arrow stream as the double; null for
   * any other text.
   */
  private static Double nonFinite(String text) {
    return switch (text) {
      case "inf" -> Double.POSITIVE_INFINITY;
      case "-inf" -> Double.NEGATIVE_INFINITY;
      case "nan" -> Double.NaN;
      default -> null;
    };
  }

  /** The index of a column by name, or -1. */
  public int column(String name) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }
}
