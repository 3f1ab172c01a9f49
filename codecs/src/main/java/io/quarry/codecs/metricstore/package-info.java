/**
 * The metric index store (issue 25): one {@link io.quarry.codecs.metricstore.MetricIndexStore} per
 * index declared {@code datatype: metric}, holding data points ({@code metric_name}, {@code
 * _value}, {@code _time}, string dimensions) as time series — a series is a metric name plus a
 * sorted dimension set.
 *
 * <p>Points come as columnar batches ({@link io.quarry.codecs.metricstore.MetricBatch}) and are
 * appended to the index's own write-ahead log ({@link io.quarry.codecs.metricstore.MetricLog}, a
 * series dictionary per file) and into the hot bucket's in-memory series ({@link
 * io.quarry.codecs.metricstore.HotBucket}: a series dictionary with postings, and per series the
 * chunk codec's chunks of {@code io.quarry.codecs.metric}, encoded outside the index's lock in log
 * order through series stripes); a write returns once the log is forced. The hot bucket rolls into
 * an immutable warm bucket — a series file (dictionary, postings, chunk index with each chunk's
 * time bounds) and a chunk file, both in {@link io.quarry.codecs.metricstore.MetricBucketFormat} —
 * after which the log files it covers are deleted. Warm buckets adjacent in time are merged in the
 * background ({@link io.quarry.codecs.metricstore.MergePolicy}, {@link
 * io.quarry.codecs.metricstore.BucketMerger}), crash-safe, while searches holding the old ones keep
 * reading them. Queries select series by postings and a predicate, skip buckets and chunks by their
 * time bounds, and decode only the chunks that overlap ({@link
 * io.quarry.codecs.metricstore.MetricIndexStore#scan}; a warm bucket's series in parallel slices
 * when the visitor forks, {@link io.quarry.codecs.metricstore.SeriesSlices}; or a chunk at a time
 * as the reader advances a {@link io.quarry.codecs.metricstore.MetricCursor}). {@link
 * io.quarry.codecs.metricstore.MetricStore} holds every metric index of a data directory; {@link
 * io.quarry.codecs.metricstore.MetricFsck} checks one offline.
 */
package io.quarry.codecs.metricstore;
