/**
 * Searches over metric indexes (issue 25): {@code mstats} ({@link
 * io.quarry.server.search.metric.MstatsRun}: per group and time bucket, one state per aggregation
 * column, fed series by series from the store's chunks — a bucket's series in parallel slices on
 * the search pool, each slice into a fork of the run, joined in series order), {@code mcatalog}
 * (from the series dictionaries) and {@code mpreview} (raw points), dispatched by {@link
 * io.quarry.server.search.metric.MetricSearch}. The where clause selects series through {@link
 * io.quarry.server.search.metric.SeriesFilter}: postings for its exact top-level terms, Splunk's
 * search semantics for the whole of it. Each answers as typed pages ({@code MstatsRun.pages},
 * {@link io.quarry.server.search.metric.PreviewPages}, {@link
 * io.quarry.server.search.metric.CatalogAnswer}, {@code prestats=true}'s points as {@link
 * io.quarry.server.search.metric.PrestatsPages}, pulled a page at a time through {@link
 * io.quarry.server.search.metric.PrestatsCursor} by the pipeline after it or an {@code mstats
 * append=true}) for the page stages after it.
 */
package io.quarry.server.search.metric;
