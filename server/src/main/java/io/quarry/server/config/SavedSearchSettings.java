package io.quarry.server.config;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A saved search as Splunk's {@code savedsearches.conf} stanza: its query, a description and the
 * time range a dispatch without one uses ({@code dispatch.earliest_time}, {@code
 * dispatch.latest_time}). Its key in {@code search.savedSearches} is its name.
 */
public record SavedSearchSettings(
    @JsonProperty("search") String search,
    @JsonProperty("description") String description,
    @JsonProperty("earliest") String earliest,
    @JsonProperty("latest") String latest) {
  public SavedSearchSettings {
    if (search == null || search.isBlank()) {
      throw new IllegalArgumentException("a saved search needs a search");
    }
  }
}
