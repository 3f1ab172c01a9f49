package io.quarry.ql.exec;

import java.util.Locale;

/** A case-insensitive pattern where {@code *} matches any run of characters. */
public final class Wildcard {
  private final String[] parts;
  private final boolean anchoredStart;
  private final boolean anchoredEnd;
  private final String literal;

  public Wildcard(String pattern) {
    String lower = pattern.toLowerCase(Locale.ROOT);
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
    String text = value.toLowerCase(Locale.ROOT);
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
