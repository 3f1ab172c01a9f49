/**
 * Per-sourcetype rules, Splunk's props.conf done as code: how to find an event's timestamp at
 * ingest, and which fields to extract at search time. Known sourcetypes use one fixed format (the
 * fast path); unknown ones try the common formats within a short lookahead.
 */
package io.quarry.server.sourcetype;
