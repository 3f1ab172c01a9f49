package io.quarry.server.config;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The checks of one role of {@code auth.roles} ({@link Role}): its index patterns, quota, {@code
 * srchMaxTime} and capabilities; and how its index patterns match an index.
 */
final class RoleSettings {
  private static final Pattern MAX_TIME =
      Pattern.compile(
          "(\\d{1,9})\\s*(s|sec|secs|second|seconds|m|min|mins|minute|minutes|h|hr|hrs|hour"
              + "|hours|d|day|days)?");

  private RoleSettings() {}

  /** See {@link Role#maxTime()}. */
  static Optional<Duration> maxTime(String srchMaxTime) {
    if (srchMaxTime == null) {
      return Optional.empty();
    }
    Duration duration = parseMaxTime(srchMaxTime);
    return duration.isZero() ? Optional.empty() : Optional.of(duration);
  }

  private static Duration parseMaxTime(String text) {
    Matcher matcher = MAX_TIME.matcher(text.toLowerCase(Locale.ROOT));
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          "srchMaxTime: a number of seconds or a number with a unit (30s, 10m, 8h, 100days),"
              + " not '"
              + text
              + "'");
    }
    long amount = Long.parseLong(matcher.group(1));
    String unit = matcher.group(2) == null ? "s" : matcher.group(2);
    return switch (unit.charAt(0)) {
      case 'm' -> Duration.ofMinutes(amount);
      case 'h' -> Duration.ofHours(amount);
      case 'd' -> Duration.ofDays(amount);
      default -> Duration.ofSeconds(amount);
    };
  }

  /** See {@link Role#check(String)}. */
  static void check(Role role, String name) {
    String prefix = "auth.roles." + name + ".";
    for (String pattern : role.srchIndexesAllowed()) {
      checkPattern(prefix + "srchIndexesAllowed", pattern);
    }
    for (String pattern : role.srchIndexesDefault()) {
      checkPattern(prefix + "srchIndexesDefault", pattern);
    }
    if (role.srchJobsQuota() < 0) {
      throw new IllegalArgumentException(
          prefix + "srchJobsQuota: at least 0 (0: no limit), not " + role.srchJobsQuota());
    }
    try {
      role.maxTime();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(prefix + e.getMessage());
    }
    for (String capability : role.capabilities()) {
      if (!Role.CAPABILITIES.contains(capability)) {
        throw new IllegalArgumentException(
            prefix
                + "capabilities: unknown capability '"
                + capability
                + "' (known: "
                + String.join(", ", new java.util.TreeSet<>(Role.CAPABILITIES))
                + ")");
      }
    }
  }

  private static void checkPattern(String setting, String pattern) {
    if (pattern == null || !pattern.matches("[A-Za-z0-9_*.-]{1,128}")) {
      throw new IllegalArgumentException(
          setting
              + ": an index name or pattern is letters, digits, _.- and *, not '"
              + pattern
              + "'");
    }
  }

  /** See {@link Role#matchesAny(List, String)}. */
  static boolean matchesAny(List<String> patterns, String index) {
    String name = index.toLowerCase(Locale.ROOT);
    for (String pattern : patterns) {
      String lower = pattern.toLowerCase(Locale.ROOT);
      if (name.startsWith("_") && !lower.startsWith("_")) {
        continue;
      }
      // the search language's own wildcard matcher: linear, no regex compiled per call
      if (new io.quarry.ql.exec.Wildcard(lower).matches(name)) {
        return true;
      }
    }
    return false;
  }
}
