package io.quarry.benchmarks.e2e;

/**
 * One query of the end-to-end suite in each engine's language.
 *
 * @param name a short stable name (the JSON key)
 * @param spl the Quarry search (over all time)
 * @param sql the DuckDB equivalent over the {@code logs} table
 * @param logsql the VictoriaLogs equivalent over the same lines with their fields
 * @param note what differs between the engines, if anything
 */
public record Query(String name, String spl, String sql, LogsQl logsql, String note) {}
