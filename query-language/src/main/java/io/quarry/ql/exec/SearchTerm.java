package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.SearchExpression;
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
  private final SearchExpression.Directive directive;

  public SearchTerm(String text, boolean phrase) {
    this(text, phrase, SearchExpression.Directive.NONE);
  }

  public SearchTerm(String text, boolean phrase, SearchExpression.Directive directive) {
    this.text = requireNonNull(text, "text is null");
    this.lowerCase = text.toLowerCase(Locale.ROOT);
    this.phrase = phrase;
    this.directive = requireNonNull(directive, "directive is null");
    this.pattern = !phrase && Wildcard.hasWildcard(text) ? new Wildcard(text) : null;
  }

  /** {@code TERM()}/{@code CASE()}, or {@code NONE} for a plain word or phrase. */
  public SearchExpression.Directive directive() {
    return directive;
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

  /**
   * Whether this is a bare word of {@code *}s alone, which matches every event — also one whose
   * text holds no term (empty, or one token longer than the tokenizer keeps), as Splunk's {@code
   * search *} does.
   */
  public boolean matchesEveryEvent() {
    return pattern != null
        && directive == SearchExpression.Directive.NONE
        && text.chars().allMatch(c -> c == '*');
  }

  /** The compiled pattern of a bare word with {@code *}, or null. */
  public Wildcard pattern() {
    return pattern;
  }
}
