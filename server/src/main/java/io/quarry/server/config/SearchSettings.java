package io.quarry.server.config;

import io.quarry.ql.parser.Macros;
import io.quarry.server.saved.SavedSearch;
import java.util.Map;

/**
 * The checks of the {@code search} section ({@link Search}): its limits, its macros compiled, and
 * its saved searches as {@link SavedSearch}es.
 */
final class SearchSettings {
  private SearchSettings() {}

  /** Checks the search limits once their defaults are in; the message names the setting. */
  static void check(
      long maxMemoryBytes,
      long maxTotalMemoryBytes,
      int maxConcurrentJobs,
      int maxJobs,
      int jobTtlSeconds,
      int maxJobTtlSeconds,
      long maxResultRows,
      int maxTimeSeconds) {
    Bounds.atLeastOne(maxMemoryBytes, "search.maxMemoryBytes");
    Bounds.atLeastOne(maxTotalMemoryBytes, "search.maxTotalMemoryBytes");
    if (maxConcurrentJobs < 1 || maxJobs < 1 || jobTtlSeconds < 1 || maxJobTtlSeconds < 1) {
      throw new IllegalArgumentException(
          "search.maxConcurrentJobs, search.maxJobs, search.jobTtlSeconds and"
              + " search.maxJobTtlSeconds must be at least 1");
    }
    if (jobTtlSeconds > maxJobTtlSeconds) {
      throw new IllegalArgumentException(
          "search.jobTtlSeconds ("
              + jobTtlSeconds
              + ") is above search.maxJobTtlSeconds ("
              + maxJobTtlSeconds
              + ")");
    }
    Bounds.atLeastOne(maxResultRows, "search.maxResultRows");
    Bounds.atLeastOne(maxTimeSeconds, "search.maxTimeSeconds");
  }

  /** Checks that {@code search.macros} compile; the message names the section. */
  static void checkMacros(Map<String, MacroSettings> macroSettings) {
    try {
      macros(macroSettings);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("search.macros: " + e.getMessage(), e);
    }
  }

  /** The search macros, checked (names, arities, argument names). */
  static Macros macros(Map<String, MacroSettings> macroSettings) {
    Map<String, Macros.Macro> definitions = new java.util.LinkedHashMap<>();
    macroSettings.forEach(
        (name, settings) ->
            definitions.put(name, new Macros.Macro(settings.args(), settings.definition())));
    return new Macros(definitions);
  }

  /** The configured saved searches by name, owned by {@code nobody}. */
  static Map<String, SavedSearch> savedSearches(Map<String, SavedSearchSettings> settings) {
    Map<String, SavedSearch> searches = new java.util.TreeMap<>();
    settings.forEach(
        (name, saved) ->
            searches.put(
                name,
                new SavedSearch(
                    saved.search(),
                    saved.description(),
                    saved.earliest(),
                    saved.latest(),
                    "nobody",
                    0)));
    return searches;
  }
}
