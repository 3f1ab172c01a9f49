package io.quarry.benchmarks.e2e;

/**
 * One query of the end-to-end suite in both languages.
 *
 * @param name a short stable name (the JSON key)
 * @param spl the Quarry search (over all time)
 * @param sql the DuckDB equivalent over the {@code logs} table
 * @param note what differs between the two, if anything
 */
public record Query(String name, String spl, String sql, String note) {}
