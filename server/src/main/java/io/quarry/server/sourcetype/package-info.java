/**
 * Sourcetypes, Quarry's props.conf: the settings (configuration and the built-ins in {@code
 * builtin-sourcetypes.yml}) and what they compile to — event breaking rules, timestamp rules
 * (strptime formats matched by hand, or automatic recognition remembered per source), index-time
 * extractions with types, and search-time extractions. Pure rules: no I/O, no threads.
 */
package io.quarry.server.sourcetype;
