package io.quarry.codecs.tokens;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Splits text into index terms.
 *
 * <p>Major breakers end a token: whitespace and {@code [ ] < > ( ) { } | ! ; , ' " * & ? + =}.
 * Minor breakers split a token into parts: {@code / : @ . - $ # % \ _}. For the token {@code
 * 10.1.2.3} the terms are the parts {@code 10 1 2 3} and the whole token {@code 10.1.2.3}; for
 * {@code /cart.do} they are {@code cart do /cart.do}. Terms are lower-cased (root locale) and at
 * most {@link #MAX_TERM_LENGTH} characters long; longer tokens contribute only their parts.
 *
 * <p>Splunk also indexes the prefixes between ({@code 10.1}, {@code 10.1.2}). Quarry does not: no
 * query form it translates looks them up (a word with breakers is found by all its parts, then
 * checked against the event), and they were 22% of an access log's terms and about a sixth of its
 * index. The one visible difference: a wildcard whose text ends inside a token ({@code 10*2}) does
 * not match {@code 10.1.2.3}, where Splunk's {@code 10.1.2} would.
 */
public final class Segmenter {
  public static final int MAX_TERM_LENGTH = 256;

  private Segmenter() {}

  public static boolean isMajorBreaker(char c) {
    return switch (c) {
      case '[',
          ']',
          '<',
          '>',
          '(',
          ')',
          '{',
          '}',
          '|',
          '!',
          ';',
          ',',
          '\'',
          '"',
          '*',
          '&',
          '?',
          '+',
          '=' ->
          true;
      default -> Character.isWhitespace(c);
    };
  }

  public static boolean isMinorBreaker(char c) {
    return switch (c) {
      case '/', ':', '@', '.', '-', '$', '#', '%', '\\', '_' -> true;
      default -> false;
    };
  }

  /** Receives terms as character ranges of the lower-cased text. */
  @FunctionalInterface
  public interface TermConsumer {
    void term(int start, int end);
  }

  /**
   * Sends every index term of an already lower-cased text to {@code consumer}, as ranges; a term
   * may come more than once.
   */
  public static void forEachTerm(CharSequence lower, TermConsumer consumer) {
    int length = lower.length();
    int start = 0;
    while (start < length) {
      while (start < length && isMajorBreaker(lower.charAt(start))) {
        start++;
      }
      int end = start;
      while (end < length && !isMajorBreaker(lower.charAt(end))) {
        end++;
      }
      if (end > start) {
        token(lower, start, end, consumer);
      }
      start = end;
    }
  }

  private static void token(CharSequence text, int start, int end, TermConsumer consumer) {
    int partStart = start;
    boolean broken = false;
    for (int i = start; i <= end; i++) {
      if (i == end || isMinorBreaker(text.charAt(i))) {
        if (i > partStart) {
          emit(partStart, i, consumer);
        }
        broken |= i < end;
        partStart = i + 1;
      }
    }
    if (broken) {
      emit(start, end, consumer); // the whole token, when its parts are not it
    }
  }

  private static void emit(int start, int end, TermConsumer consumer) {
    if (end - start <= MAX_TERM_LENGTH) {
      consumer.term(start, end);
    }
  }

  /** Every index term of a text, in first-seen order, without duplicates. */
  public static Set<String> terms(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    Set<String> terms = new LinkedHashSet<>();
    forEachTerm(lower, (start, end) -> terms.add(lower.substring(start, end)));
    return terms;
  }

  /**
   * Whether {@code term} — a single term ({@link #isSingleTerm}), lower-cased — is one of the index
   * terms of {@code lower}, an already lower-cased text: {@code terms(text).contains(term)} without
   * building the set. A term without breakers is emitted only as a part (a run between breakers of
   * either kind, a token's whole text being one of its parts when it has no minor breaker), so it
   * is a term exactly where it occurs with a breaker or an end on each side.
   */
  public static boolean containsTerm(String lower, String term) {
    int length = term.length();
    for (int at = lower.indexOf(term); at >= 0; at = lower.indexOf(term, at + 1)) {
      int end = at + length;
      if ((at == 0 || isBreaker(lower.charAt(at - 1)))
          && (end == lower.length() || isBreaker(lower.charAt(end)))) {
        return true;
      }
    }
    return false;
  }

  private static boolean isBreaker(char c) {
    return isMajorBreaker(c) || isMinorBreaker(c);
  }

  /**
   * Whether any of the text's tokens between major breakers — not split at minor ones, lower-cased
   * — passes {@code test}: what Splunk's {@code TERM()} matches against.
   */
  public static boolean anyMajorToken(String text, java.util.function.Predicate<String> test) {
    String lower = text.toLowerCase(Locale.ROOT);
    int start = 0;
    for (int i = 0; i <= lower.length(); i++) {
      if (i == lower.length() || isMajorBreaker(lower.charAt(i))) {
        if (i > start && test.test(lower.substring(start, i))) {
          return true;
        }
        start = i + 1;
      }
    }
    return false;
  }

  /** Whether a search word is one index term as it stands (no breaker inside). */
  public static boolean isSingleTerm(String word) {
    for (int i = 0; i < word.length(); i++) {
      char c = word.charAt(i);
      if (isMajorBreaker(c) || isMinorBreaker(c)) {
        return false;
      }
    }
    return !word.isEmpty() && word.length() <= MAX_TERM_LENGTH;
  }

  /**
   * The terms an event must hold for a search word to match it: the word's parts between breakers,
   * lower-cased. Every event containing the word contains all of them; the reverse needs checking.
   */
  public static List<String> requiredParts(String word) {
    List<String> parts = new ArrayList<>();
    String lower = word.toLowerCase(Locale.ROOT);
    int partStart = 0;
    for (int i = 0; i <= lower.length(); i++) {
      if (i == lower.length()
          || isMajorBreaker(lower.charAt(i))
          || isMinorBreaker(lower.charAt(i))) {
        if (i > partStart && i - partStart <= MAX_TERM_LENGTH) {
          parts.add(lower.substring(partStart, i));
        }
        partStart = i + 1;
      }
    }
    return parts;
  }
}
