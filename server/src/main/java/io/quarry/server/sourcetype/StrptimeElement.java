package io.quarry.server.sourcetype;

/**
 * One step of a compiled {@link StrptimeFormat}: a directive (what it reads, and for numbers how
 * many digits) or a literal character.
 *
 * @param kind what the step reads
 * @param literal the character a {@link Kind#LITERAL} matches (the directive letter otherwise)
 * @param digits the width of a number: exact for years and {@code %3N}-style fractions, the most
 *     for other numbers; 0 where the step reads no fixed count
 */
record StrptimeElement(StrptimeElement.Kind kind, char literal, int digits) {
  /** What a step reads. */
  enum Kind {
    LITERAL,
    SPACES,
    YEAR4,
    YEAR2,
    MONTH,
    DAY,
    DAY_OF_YEAR,
    HOUR24,
    HOUR12,
    MINUTE,
    SECOND,
    FRACTION,
    OPTIONAL_FRACTION,
    MILLIS,
    MONTH_NAME,
    DAY_NAME,
    AM_PM,
    OFFSET,
    OPTIONAL_OFFSET,
    ZONE_NAME,
    EPOCH
  }

  /** Whether this step reads a part of a date (month, day) or a whole instant ({@code %s}). */
  boolean readsDate() {
    return switch (kind) {
      case MONTH, MONTH_NAME, DAY, DAY_OF_YEAR, EPOCH -> true;
      default -> false;
    };
  }

  /** Whether this step reads a part of a date or of a time of day, or a whole instant. */
  boolean readsDateOrTime() {
    return readsDate() || kind == Kind.HOUR24 || kind == Kind.HOUR12;
  }
}
