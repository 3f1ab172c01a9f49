/**
 * The end-to-end harness ({@code ./quarry bench}): the reference dataset, Quarry in a child JVM on
 * a fresh data directory, ingest through HEC and {@code quarry ingest}, a fixed query suite run on
 * Quarry and on DuckDB (in process) in the same run with their answers compared, and a concurrency
 * run; a console table and a JSON report.
 */
package io.quarry.benchmarks.e2e;
