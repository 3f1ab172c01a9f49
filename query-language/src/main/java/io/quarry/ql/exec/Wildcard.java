package io.quarry.ql.exec;

import java.util.Locale;

/**
 * A pattern where {@code *} matches any run of characters, case-insensitive unless made with {@link
 * #caseSensitive} ({@code CASE(term*)}).
 */
public final class Wildcard {
  private final boolean ignoreCase;
  private final String[] parts;
  private final boolean anchoredStart;
  private final boolean anchoredEnd;
  private final String literal;

  public Wildcard(String pattern) {
    this(pattern, true);
  }

  /** {@code pattern} matched with its letters' case as written. */
  public static Wildcard caseSensitive(String pattern) {
    return new Wildcard(pattern, false);
  }

  private Wildcard(String pattern, boolean ignoreCase) {
    this.ignoreCase = ignoreCase;
    String lower = ignoreCase ? pattern.toLowerCase(Locale.ROOT) : pattern;
    if (lower.indexOf('*') < 0) {
      this.literal = lower;
      this.parts = null;
      this.anchoredStart = true;
      this.anchoredEnd = true;
    } else {
      this.literal = null;
      this.parts = lower.split("\\*+", -1);
      this.anchoredStart = !lower.startsWith("*");
      this.anchoredEnd = !lower.endsWith("*");
    }
  }

  public static boolean hasWildcard(String text) {
    return text.indexOf('*') >= 0;
  }

  public boolean matches(String value) {
    String text = ignoreCase ? value.toLowerCase(Locale.ROOT) : value;
    if (literal != null) {
      return text.equals(literal);
    }
    int at = 0;
    int first = 0;
    int last = parts.length - 1;
    if (anchoredStart) {
      if (!text.startsWith(parts[0])) {
        return false;
      }
      at = parts[0].length();
      first = 1;
    }
    if (anchoredEnd) {
      if (text.length() - at < parts[last].length() || !text.endsWith(parts[last])) {
        return false;
      }
    }
    int stop = anchoredEnd ? last : parts.length;
    int limit = anchoredEnd ? text.length() - parts[last].length() : text.length();
    for (int i = first; i < stop; i++) {
      if (parts[i].isEmpty()) {
        continue;
      }
      int found = text.indexOf(parts[i], at);
      if (found < 0 || found + parts[i].length() > limit) {
        return false;
      }
      at = found + parts[i].length();
    }
    return true;
  }
}
