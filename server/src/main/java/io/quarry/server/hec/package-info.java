/**
 * The HTTP Event Collector, compatible with Splunk's: token authentication, the event endpoint with
 * concatenated JSON envelopes, the raw endpoint, health, indexer acknowledgement per data channel,
 * and Splunk's numbered error codes. Envelopes are read as a stream ({@link
 * io.quarry.server.hec.HecEnvelope}): no JSON tree for a metric envelope's fields; an {@code event}
 * string of ASCII without escapes is taken from the body's bytes ({@link
 * io.quarry.server.hec.EventStringBytes}) and stored as they are.
 */
package io.quarry.server.hec;
