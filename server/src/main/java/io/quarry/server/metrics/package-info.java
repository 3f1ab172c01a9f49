/**
 * Quarry's own meters (HTTP requests, events ingested, searches) and the JVM's, in one Micrometer
 * registry exposed in Prometheus text format at {@code /metrics}.
 */
package io.quarry.server.metrics;
