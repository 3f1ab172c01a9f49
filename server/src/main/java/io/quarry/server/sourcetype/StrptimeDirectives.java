package io.quarry.server.sourcetype;

import io.quarry.server.sourcetype.StrptimeElement.Kind;
import java.util.List;

/**
 * The directive table of {@link StrptimeFormat}: a format's text compiled into its steps, {@code
 * %T}, {@code %F} and {@code %D} expanded; an unknown directive is an error naming it.
 */
final class StrptimeDirectives {
  private StrptimeDirectives() {}

  /**
   * Appends the steps of {@code pattern} to {@code into}.
   *
   * @throws IllegalArgumentException naming the directive that is unknown or malformed
   */
  static void compileInto(String pattern, List<StrptimeElement> into) {
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c != '%') {
        into.add(
            c == ' '
                ? new StrptimeElement(Kind.SPACES, ' ', 0)
                : new StrptimeElement(Kind.LITERAL, c, 0));
        continue;
      }
      if (++i == pattern.length()) {
        throw new IllegalArgumentException("time format '" + pattern + "' ends with a lone %");
      }
      char directive = pattern.charAt(i);
      int digits = 0;
      if (directive >= '1' && directive <= '9') {
        digits = directive - '0';
        if (++i == pattern.length() || pattern.charAt(i) != 'N') {
          throw new IllegalArgumentException(
              "time format '" + pattern + "': only N takes a width (%3N, %6N, %9N)");
        }
        into.add(new StrptimeElement(Kind.FRACTION, 'N', digits));
        continue;
      }
      if (directive == '.' || directive == '?') {
        char next = ++i < pattern.length() ? pattern.charAt(i) : 0;
        if (directive == '.' && next == 'N') {
          into.add(new StrptimeElement(Kind.OPTIONAL_FRACTION, 'N', 0));
          continue;
        }
        if (directive == '?' && next == 'z') {
          into.add(new StrptimeElement(Kind.OPTIONAL_OFFSET, 'z', 0));
          continue;
        }
        throw new IllegalArgumentException(
            "time format '" + pattern + "': unknown directive %" + directive + next);
      }
      switch (directive) {
        case 'Y' -> into.add(new StrptimeElement(Kind.YEAR4, directive, 4));
        case 'y' -> into.add(new StrptimeElement(Kind.YEAR2, directive, 2));
        case 'm' -> into.add(new StrptimeElement(Kind.MONTH, directive, 2));
        case 'd', 'e' -> into.add(new StrptimeElement(Kind.DAY, directive, 2));
        case 'j' -> into.add(new StrptimeElement(Kind.DAY_OF_YEAR, directive, 3));
        case 'H', 'k' -> into.add(new StrptimeElement(Kind.HOUR24, directive, 2));
        case 'I', 'l' -> into.add(new StrptimeElement(Kind.HOUR12, directive, 2));
        case 'M' -> into.add(new StrptimeElement(Kind.MINUTE, directive, 2));
        case 'S' -> into.add(new StrptimeElement(Kind.SECOND, directive, 2));
        case 'N', 'f' -> into.add(new StrptimeElement(Kind.FRACTION, directive, 0));
        case 'L' -> into.add(new StrptimeElement(Kind.MILLIS, directive, 3));
        case 'b', 'h', 'B' -> into.add(new StrptimeElement(Kind.MONTH_NAME, directive, 0));
        case 'a', 'A' -> into.add(new StrptimeElement(Kind.DAY_NAME, directive, 0));
        case 'p' -> into.add(new StrptimeElement(Kind.AM_PM, directive, 0));
        case 'z' -> into.add(new StrptimeElement(Kind.OFFSET, directive, 0));
        case 'Z' -> into.add(new StrptimeElement(Kind.ZONE_NAME, directive, 0));
        case 's' -> into.add(new StrptimeElement(Kind.EPOCH, directive, 0));
        case 'T' -> compileInto("%H:%M:%S", into);
        case 'F' -> compileInto("%Y-%m-%d", into);
        case 'D' -> compileInto("%m/%d/%y", into);
        case '%' -> into.add(new StrptimeElement(Kind.LITERAL, '%', 0));
        default ->
            throw new IllegalArgumentException(
                "time format '" + pattern + "': unknown directive %" + directive);
      }
    }
  }
}
