/**
 * The search runtime of the first slice: binds a parsed plan to the event store. It translates the
 * search expression into a term-index query (exact where it can be, a superset checked per event
 * where it cannot), scans the chosen indexes newest first, extracts fields on demand (index-time
 * fields, the sourcetype's extraction, JSON, key=value) and runs the row pipeline into typed pages.
 *
 * <p>The search-engine issue replaces the single-threaded scan with per-segment drivers.
 */
package io.quarry.server.search;
