/**
 * Sourcetypes, Quarry's props.conf: the settings (configuration and the built-ins in {@code
 * builtin-sourcetypes.yml}) and what they compile to — event breaking rules, timestamp rules
 * (strptime formats matched by hand, or automatic recognition remembered per source), index-time
 * extractions with types, search-time extractions, and what a search reads out of the text:
 * key=value pairs, plain or escaped, JSON, XML ({@link io.quarry.server.sourcetype.KvMode},
 * Splunk's {@code KV_MODE}). Pure rules: no I/O, no threads.
 */
package io.quarry.server.sourcetype;
