/**
 * The HTTP Event Collector, compatible with Splunk's: token authentication, the event endpoint with
 * concatenated JSON envelopes, the raw endpoint, health, indexer acknowledgement per data channel,
 * and Splunk's numbered error codes. Envelopes are read as a stream ({@link
 * io.quarry.server.hec.HecEnvelope}): no JSON tree for a metric envelope's fields (held as slots of
 * primitive columns, {@link io.quarry.server.hec.HecFieldSlots}; other members as nodes built from
 * the tokens, {@link io.quarry.server.hec.TokenTrees}); an {@code event} string of ASCII without
 * escapes is taken from the body's bytes ({@link io.quarry.server.hec.EventStringBytes}) and stored
 * as they are.
 */
package io.quarry.server.hec;
