/**
 * The metric index benchmark ({@code ./quarry metric-bench}, issue 25): ingest rate over HEC and
 * into the store directly, bytes per point on disk, and mstats query times, over a generated
 * dataset of hosts × metrics × points.
 */
package io.quarry.benchmarks.metrics;
