package io.quarry.server.saved;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A search kept by name, as Splunk's {@code savedsearches.conf} stanza holds the parts Quarry runs:
 * the query, a description, and the time range a dispatch uses when the caller gives none.
 *
 * @param search the SPL query
 * @param description free text, may be empty
 * @param earliest {@code dispatch.earliest_time}: a time modifier, or empty for none
 * @param latest {@code dispatch.latest_time}: a time modifier, or empty for none
 * @param owner the user who created it ({@code nobody} for the configuration's)
 * @param updatedMillis when it was last created or changed, epoch milliseconds
 */
public record SavedSearch(
    @JsonProperty("search") String search,
    @JsonProperty("description") String description,
    @JsonProperty("earliest") String earliest,
    @JsonProperty("latest") String latest,
    @JsonProperty("owner") String owner,
    @JsonProperty("updatedMillis") long updatedMillis) {
  public SavedSearch {
    requireNonNull(search, "search is null");
    description = description == null ? "" : description;
    earliest = earliest == null ? "" : earliest;
    latest = latest == null ? "" : latest;
    owner = owner == null ? "nobody" : owner;
  }
}
