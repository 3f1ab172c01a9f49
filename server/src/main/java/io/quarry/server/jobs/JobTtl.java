package io.quarry.server.jobs;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How long finished jobs are kept after they were last looked at: {@code standard} when the client
 * names no TTL (search.jobTtlSeconds), and never more than {@code max} (search.maxJobTtlSeconds)
 * whatever it asks for (Splunk's {@code timeout} and {@code setttl} included) nor less than a
 * second.
 */
record JobTtl(Duration standard, Duration max) {
  JobTtl {
    requireNonNull(max, "max is null");
    standard = clamp(requireNonNull(standard, "standard is null"), max);
  }

  /** The TTL of a job whose client asked for {@code requested} (null: none). */
  Duration of(Duration requested) {
    return requested == null ? standard : clamp(requested, max);
  }

  private static Duration clamp(Duration ttl, Duration max) {
    if (ttl.compareTo(max) > 0) {
      return max;
    }
    return ttl.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : ttl;
  }
}
