package io.quarry.client;

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
  /**
   * A result column: its name and type ({@code long}, {@code double}, {@code boolean}, {@code
   * string}, {@code timestamp}).
   */
  public record Column(String name, String type) {}

  public TypedResults {
    columns = List.copyOf(columns);
    rows = List.copyOf(rows);
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
