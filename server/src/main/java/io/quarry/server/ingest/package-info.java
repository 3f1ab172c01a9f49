/**
 * Turning accepted input into stored events: admission to the bounded ingest pipelines, raw streams
 * broken into events, timestamped and extracted by their sourcetype's rules, events grouped by
 * index and written durably, with counts in the metrics; and Quarry's own log as {@code _internal},
 * whose queue and close protocol ({@code WriterQueue}) the audit trail shares.
 */
package io.quarry.server.ingest;
