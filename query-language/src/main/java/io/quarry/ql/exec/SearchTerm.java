package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import java.util.Locale;

/**
 * A bare word or quoted phrase of a search, prepared once per query: lower-cased, and with its
 * wildcard pattern compiled, so matching it against each event does no per-event setup.
 */
public final class SearchTerm {
  private final String text;
  private final String lowerCase;
  private final boolean phrase;
  private final Wildcard pattern;

  public SearchTerm(String text, boolean phrase) {
    this.text = requireNonNull(text, "text is null");
    this.lowerCase = text.toLowerCase(Locale.ROOT);
    this.phrase = phrase;
    this.pattern = !phrase && Wildcard.hasWildcard(text) ? new Wildcard(text) : null;
  }

  public String text() {
    return text;
  }

  public String lowerCase() {
    return lowerCase;
  }

  /** A quoted phrase, matched as a case-insensitive substring of the raw text. */
  public boolean phrase() {
    return phrase;
  }

  /** The compiled pattern of a bare word with {@code *}, or null. */
  public Wildcard pattern() {
    return pattern;
  }
}
