/**
 * Turning accepted input into stored events: raw streams broken into events and timestamped by
 * their sourcetype's rules, events grouped by index and written durably, with counts in the
 * metrics.
 */
package io.quarry.server.ingest;
