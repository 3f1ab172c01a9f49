/**
 * Sourcetypes, Quarry's props.conf: the settings (configuration and the built-ins in {@code
 * builtin-sourcetypes.yml}) and what they compile to — event breaking rules, timestamp rules
 * (strptime formats matched by hand, or automatic recognition remembered per source), index-time
 * extractions with types, search-time extractions, and whether a search reads key=value pairs and
 * JSON out of the text ({@code kvMode}). Pure rules: no I/O, no threads.
 */
package io.quarry.server.sourcetype;
