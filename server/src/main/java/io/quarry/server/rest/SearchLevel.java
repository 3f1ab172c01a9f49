package io.quarry.server.rest;

import io.quarry.server.http.ApiException;
import java.util.Locale;

/**
 * Splunk's {@code adhoc_search_level} on its search-job and export endpoints, mapped to the fields
 * an event listing shows (docs/search.md, "Which fields a plain event listing shows"). Splunk's
 * Search Manual ("Search modes"): {@code fast} turns field discovery off for event searches, {@code
 * smart} turns it on for event searches (off for transforming ones), {@code verbose} returns all
 * field and event data. In Quarry {@code fast} is the plain listing (each event its default and
 * index-time fields and those its commands set) and {@code smart} and {@code verbose} list every
 * field each event has, its search-time extractions included ({@link
 * io.quarry.server.search.SearchControl#everyEventField}, as a subsearch's events; also among an
 * {@code append}'s rows and after a plugin command over the events; after a wildcard rename a row
 * lists every field it can yield in every mode); a transforming search's answer is the same in
 * every mode (Splunk's verbose also keeps the events a transforming search read, which Quarry does
 * not). Without the parameter a search runs as {@code fast}: the REST reference lists {@code
 * adhoc_search_level} with no default (a deliberate choice, documented).
 */
final class SearchLevel {
  private SearchLevel() {}

  /**
   * Whether {@code level} asks the events to carry every field: {@code smart} or {@code verbose}
   * (any case, spaces around it ignored); not {@code fast} nor an absent or blank one.
   *
   * @throws ApiException 400 {@code INVALID_PARAMETER} for any other value
   */
  static boolean everyEventField(String level) {
    if (level == null || level.isBlank()) {
      return false;
    }
    return switch (level.strip().toLowerCase(Locale.ROOT)) {
      case "fast" -> false;
      case "smart", "verbose" -> true;
      default ->
          throw ApiException.badRequest(
              "INVALID_PARAMETER",
              "adhoc_search_level must be fast, smart or verbose, not '" + level + "'");
    };
  }
}
