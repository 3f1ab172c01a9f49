package io.quarry.server.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import java.util.Objects;

/** Search limits. */
public record Search(
    @JsonProperty("defaultEarliest") String defaultEarliest,
    @JsonProperty("maxResultRows") Long maxResultRows,
    @JsonProperty("maxTimeSeconds") Integer maxTimeSeconds,
    @JsonProperty("maxConcurrentJobs") Integer maxConcurrentJobs,
    @JsonProperty("maxJobs") Integer maxJobs,
    @JsonProperty("jobTtlSeconds") Integer jobTtlSeconds,
    @JsonProperty("maxMemoryBytes") Long maxMemoryBytes,
    @JsonProperty("macros") Map<String, MacroSettings> macroSettings,
    @JsonProperty("savedSearches") Map<String, SavedSearchSettings> savedSearchSettings,
    @JsonProperty("maxTotalMemoryBytes") Long maxTotalMemoryBytes,
    @JsonProperty("maxJobTtlSeconds") Integer maxJobTtlSeconds,
    @JsonProperty("queueOverQuota") Boolean queueOverQuota) {
  /** The longest a finished job is kept by default, and at most, in seconds (a day). */
  public static final int DEFAULT_MAX_JOB_TTL_SECONDS = 86_400;

  /** The configured saved searches by name, owned by {@code nobody}. */
  public Map<String, io.quarry.server.saved.SavedSearch> savedSearches() {
    return SearchSettings.savedSearches(savedSearchSettings);
  }

  /** The search macros, checked (names, arities, argument names). */
  public io.quarry.ql.parser.Macros macros() {
    return SearchSettings.macros(macroSettings);
  }

  public Search {
    macroSettings = macroSettings == null ? Map.of() : Map.copyOf(macroSettings);
    savedSearchSettings = savedSearchSettings == null ? Map.of() : Map.copyOf(savedSearchSettings);
    SearchSettings.checkMacros(macroSettings);
    maxMemoryBytes =
        Objects.requireNonNullElse(
            maxMemoryBytes, Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 4));
    // the breaker over every running search: 60% of the heap (at least one search's limit)
    maxTotalMemoryBytes =
        Objects.requireNonNullElse(
            maxTotalMemoryBytes,
            Math.max(maxMemoryBytes, (long) (Runtime.getRuntime().maxMemory() * 0.6)));
    maxConcurrentJobs =
        Objects.requireNonNullElse(
            maxConcurrentJobs, Math.max(2, Runtime.getRuntime().availableProcessors()));
    maxJobs = Objects.requireNonNullElse(maxJobs, 1000);
    queueOverQuota = Objects.requireNonNullElse(queueOverQuota, false);
    maxJobTtlSeconds = Objects.requireNonNullElse(maxJobTtlSeconds, DEFAULT_MAX_JOB_TTL_SECONDS);
    // without its own setting, the default TTL fits under a smaller maximum
    jobTtlSeconds = Objects.requireNonNullElse(jobTtlSeconds, Math.min(600, maxJobTtlSeconds));
    defaultEarliest = Objects.requireNonNullElse(defaultEarliest, "");
    maxResultRows = Objects.requireNonNullElse(maxResultRows, 1_000_000L);
    maxTimeSeconds = Objects.requireNonNullElse(maxTimeSeconds, 600);
    SearchSettings.check(
        maxMemoryBytes,
        maxTotalMemoryBytes,
        maxConcurrentJobs,
        maxJobs,
        jobTtlSeconds,
        maxJobTtlSeconds,
        maxResultRows,
        maxTimeSeconds);
  }
}
