package io.quarry.benchmarks.e2e;

/**
 * A query in VictoriaLogs' LogsQL, and how its answer lines map onto the suite's rows.
 *
 * @param query the LogsQL
 * @param rowKey when not null, the answer's rows are the distinct values of this field: LogsQL has
 *     no pivot, so a {@code timechart … by status} comes back as one line per (hour, status) where
 *     Quarry and DuckDB give one row per hour
 */
public record LogsQl(String query, String rowKey) {
  /** A query whose answer lines are the rows. */
  static LogsQl of(String query) {
    return new LogsQl(query, null);
  }

  /** A query whose rows are the distinct values of {@code rowKey} among its answer lines. */
  static LogsQl rowsBy(String rowKey, String query) {
    return new LogsQl(query, rowKey);
  }
}
