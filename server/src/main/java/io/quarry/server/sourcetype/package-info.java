/**
 * Sourcetypes, Quarry's props.conf: the settings (configuration and the built-ins in {@code
 * builtin-sourcetypes.yml}) and what they compile to — event breaking rules, timestamp rules
 * (strptime formats matched by hand, or automatic recognition remembered per source), index-time
 * extractions with types, search-time extractions, and what a search reads out of the text:
 * key=value pairs, plain or escaped, JSON, XML ({@link io.quarry.server.sourcetype.KvMode},
 * Splunk's {@code KV_MODE}); the access log's fields by a hand-written parser ({@link
 * io.quarry.server.sourcetype.AccessLogParser}: one pass, the regex its definition) whose answer
 * cuts a field out of the line only when asked ({@link
 * io.quarry.server.sourcetype.AccessLogFields}); index-time extractions over an ASCII event's bytes
 * when every one can run there ({@link io.quarry.server.sourcetype.AsciiIndexFields}); what one
 * thread reuses over a run of events ({@link io.quarry.server.sourcetype.ParseScratch}), the last
 * timestamp it parsed among it ({@link io.quarry.server.sourcetype.TimestampMemo}, exact). Pure
 * rules: no I/O, no threads.
 */
package io.quarry.server.sourcetype;
