/**
 * The HTTP Event Collector, compatible with Splunk's: token authentication, the event endpoint with
 * concatenated JSON envelopes, the raw endpoint, health, indexer acknowledgement per data channel,
 * and Splunk's numbered error codes.
 */
package io.quarry.server.hec;
