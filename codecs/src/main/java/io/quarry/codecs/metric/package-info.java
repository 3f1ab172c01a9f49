/**
 * The metric chunk codec: the on-disk encoding of one time series' points (epoch-microsecond
 * timestamps, double values), Gorilla-style, in checksummed, versioned chunks whose headers carry
 * the point count and time range. {@link io.quarry.codecs.metric.MetricChunkFormat} documents the
 * grammar and the policies (time order, last value wins, special doubles, chunk limits); {@link
 * io.quarry.codecs.metric.MetricChunkWriter} encodes, {@link
 * io.quarry.codecs.metric.MetricChunkReader} checks a chunk and reads its header, and {@link
 * io.quarry.codecs.metric.MetricPointIterator} decodes all points or a time range. The bit stream
 * underneath is {@code BitWriter}/{@code BitReader}, on long words.
 *
 * <p>Not here yet: the series dictionary, the files that hold chunks per bucket, ingestion and
 * queries (issue 25).
 */
package io.quarry.codecs.metric;
