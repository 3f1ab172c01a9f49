/**
 * Searches over metric indexes (issue 25): {@code mstats} ({@link
 * io.quarry.server.search.metric.MstatsRun}: per group and time bucket, one state per aggregation
 * column, fed series by series from the store's chunks — a bucket's series in parallel slices on
 * the search pool, each slice into a fork of the run, joined in series order), {@code mcatalog}
 * (from the series dictionaries) and {@code mpreview} (raw points), dispatched by {@link
 * io.quarry.server.search.metric.MetricSearch}. The where clause selects series through {@link
 * io.quarry.server.search.metric.SeriesFilter}: postings for its exact top-level terms, Splunk's
 * search semantics for the whole of it. Their rows feed the rest of the pipeline like any
 * generating command's.
 */
package io.quarry.server.search.metric;
