package io.quarry.server.search;

import io.quarry.codecs.tokens.Segmenter;
import io.quarry.ql.exec.RawTermMatcher;
import io.quarry.ql.exec.SearchTerm;
import java.util.Locale;
import java.util.Set;

/**
 * How a search's bare word or phrase matches an event's raw text — the {@code search} command's
 * matching, by the index's tokenizer ({@link Segmenter}): a word as a whole term, a phrase as a
 * case-insensitive substring, a {@code *} word against every term, {@code TERM()} against the
 * tokens between major breakers, {@code CASE()} with its case. {@link EventRow} matches its event
 * through one {@link Text}; the page engine's {@code searchmatch()} through {@link #MATCHER}.
 */
final class RawTerms {
  /** The matcher the page evaluators use ({@code Evaluator.withRawTermMatcher}). */
  static final RawTermMatcher MATCHER = (raw, term) -> new Text(raw).matches(term);

  private RawTerms() {}

  /** One raw text, its lower case and its terms made the first time a term needs them. */
  static final class Text {
    private final String raw;
    private String lowerRaw;
    private Set<String> terms;

    Text(String raw) {
      this.raw = raw;
    }

    boolean matches(SearchTerm term) {
      switch (term.directive()) {
        case TERM -> {
          // a * in TERM() goes through the linear Wildcard matcher, never a backtracking regex
          return term.pattern() != null
              ? Segmenter.anyMajorToken(raw, term.pattern()::matches)
              : Segmenter.anyMajorToken(raw, term.lowerCase()::equals);
        }
        case CASE -> {
          return matchesWord(term) && containsInOrder(raw, term.text());
        }
        case NONE -> {
          return matchesWord(term);
        }
      }
      throw new AssertionError(term.directive());
    }

    /**
     * Whether the parts of {@code pattern} between its {@code *}s occur in order, with their case.
     */
    private static boolean containsInOrder(String raw, String pattern) {
      int at = 0;
      for (String part : pattern.split("\\*")) {
        if (part.isEmpty()) {
          continue;
        }
        int found = raw.indexOf(part, at);
        if (found < 0) {
          return false;
        }
        at = found + part.length();
      }
      return true;
    }

    private boolean matchesWord(SearchTerm term) {
      if (term.matchesEveryEvent()) {
        return true; // an event with no term at all is still an event
      }
      if (term.pattern() != null) {
        if (terms == null) {
          terms = Segmenter.terms(raw);
        }
        return terms.stream().anyMatch(term.pattern()::matches);
      }
      if (lowerRaw == null) {
        if (surelyAbsent(raw, term.lowerCase())) {
          return false; // most events of a candidate block lack a rare word: no lower case made
        }
        lowerRaw = raw.toLowerCase(Locale.ROOT);
      }
      if (!term.phrase() && Segmenter.isSingleTerm(term.text())) {
        return Segmenter.containsTerm(lowerRaw, term.lowerCase());
      }
      return lowerRaw.contains(term.lowerCase());
    }

    /**
     * Whether a text surely does not hold {@code lower} (an ASCII lower-case word or phrase) in its
     * lower case, as a term or as a substring, found without making the lower case: the only
     * characters past ASCII whose lower case holds ASCII are {@code İ} ({@code i̇}) and the Kelvin
     * sign ({@code k}), so in a text without them an ASCII word's occurrences in the lower case are
     * its case-insensitive occurrences among the text's ASCII characters. False (the lower case
     * decides) for a word past ASCII, a text with either sign, or one that holds the word.
     */
    static boolean surelyAbsent(String raw, String lower) {
      int length = lower.length();
      if (length == 0 || raw.indexOf('\u0130') >= 0 || raw.indexOf('\u212A') >= 0) {
        return false;
      }
      for (int i = 0; i < length; i++) {
        if (lower.charAt(i) >= 0x80) {
          return false;
        }
      }
      char first = lower.charAt(0);
      char upper = first >= 'a' && first <= 'z' ? (char) (first - 0x20) : first;
      return !startsAt(raw, lower, first) && (upper == first || !startsAt(raw, lower, upper));
    }

    /** Whether {@code lower} occurs, in any case, where {@code raw} holds {@code first}. */
    private static boolean startsAt(String raw, String lower, char first) {
      for (int at = raw.indexOf(first); at >= 0; at = raw.indexOf(first, at + 1)) {
        if (raw.regionMatches(true, at, lower, 0, lower.length())) {
          return true;
        }
      }
      return false;
    }
  }
}
