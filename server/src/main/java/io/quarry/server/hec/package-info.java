/**
 * The HTTP Event Collector, compatible with Splunk's: token authentication, the event endpoint with
 * concatenated JSON envelopes, the raw endpoint, health, indexer acknowledgement per data channel,
 * and Splunk's numbered error codes. Envelopes are read as a stream ({@link
 * io.quarry.server.hec.HecEnvelope}): no JSON tree for a metric envelope's fields.
 */
package io.quarry.server.hec;
