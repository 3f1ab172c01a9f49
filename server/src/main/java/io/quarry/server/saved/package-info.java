/**
 * Saved searches: searches kept by name, from the configuration ({@code search.savedSearches}) and
 * defined over Splunk's REST API ({@code saved/searches}, kept in {@code savedsearches.json}); run
 * with {@code | savedsearch <name>} (expanded before parsing by {@link
 * io.quarry.ql.parser.SavedSearches}) or dispatched as jobs.
 */
package io.quarry.server.saved;
