/**
 * Metric indexes in the server (issue 25): taking data points in — Splunk HEC's metric envelopes
 * ({@link io.quarry.server.metricindex.HecMetricEnvelope}, a request's points gathered by {@link
 * io.quarry.server.metricindex.HecMetricBatches}) and the Prometheus text exposition format ({@link
 * io.quarry.server.metricindex.PrometheusText}, {@code POST /api/v1/metrics/import/prometheus}) and
 * Prometheus remote-write ({@link io.quarry.server.metricindex.PrometheusRemoteWrite}, {@code POST
 * /api/v1/write}) — and writing them durably ({@link io.quarry.server.metricindex.MetricIngest})
 * into the metric store of {@code io.quarry.codecs.metricstore}. Searching them ({@code mstats},
 * {@code mcatalog}, {@code mpreview}) is {@code io.quarry.server.search.metric}.
 */
package io.quarry.server.metricindex;
