package io.quarry.server.search;

import io.quarry.codecs.store.EventRun;
import io.quarry.codecs.tokens.Segmenter;
import io.quarry.ql.exec.RawTermMatcher;
import io.quarry.ql.exec.SearchTerm;
import java.util.Locale;
import java.util.Set;

/**
 * How a search's bare word or phrase matches an event's raw text — the {@code search} command's
 * matching, by the index's tokenizer ({@link Segmenter}): a word as a whole term, a phrase as a
 * case-insensitive substring, a {@code *} word against every term, {@code TERM()} against the
 * tokens between major breakers, {@code CASE()} with its case. {@link EventFilter} matches a
 * visited event on the journal's bytes where they decide ({@link OnBytes}, each term worked out
 * once per search), else through one {@link Text}; the page engine's {@code searchmatch()} through
 * {@link #MATCHER}.
 */
final class RawTerms {
  /** The matcher the page evaluators use ({@code Evaluator.withRawTermMatcher}). */
  static final RawTermMatcher MATCHER = (raw, term) -> new Text(raw).matches(term);

  private RawTerms() {}

  /** {@link OnBytes#matches}: the bytes cannot tell. */
  static final int UNDECIDED = -1;

  /**
   * A search term as the bytes decide it, worked out once per search (its lower case, whether it is
   * a plain ASCII word or phrase, whether a word of one term) instead of for every event.
   */
  static final class OnBytes {
    private final String lower;
    private final boolean ascii; // a non-empty word of ASCII characters
    private final boolean decides; // a plain word or phrase of ASCII characters
    private final boolean wholeTerm;

    private OnBytes(SearchTerm term) {
      this.lower = term.lowerCase();
      this.ascii = asciiWord(lower);
      this.decides =
          ascii
              && term.directive() == io.quarry.ql.ast.SearchExpression.Directive.NONE
              && term.pattern() == null;
      this.wholeTerm = decides && !term.phrase() && Segmenter.isSingleTerm(term.text());
    }

    static OnBytes of(SearchTerm term) {
      return new OnBytes(term);
    }

    /**
     * Whether the ASCII text {@code bytes[offset, offset + length)} holds this term, as {@link
     * Text#matches} answers for the same characters, decided on the bytes a scan decoded ({@code
     * AsciiText}) without a {@code String} or its lower case: 1 or 0 for a plain word or phrase (no
     * directive, no wildcard) of ASCII characters — a word of one term where its letters occur in
     * either case between breakers (or the text's ends), anything else where they occur at all —
     * else {@link #UNDECIDED}.
     */
    int matches(byte[] bytes, int offset, int length) {
      if (!decides) {
        return UNDECIDED;
      }
      return find(bytes, offset, offset + length, lower, wholeTerm) ? 1 : 0;
    }

    /**
     * Whether the ASCII text {@code bytes[offset, offset + length)} surely does not hold this
     * term's lower case in any case — {@link Text#surelyAbsent} over the bytes a scan decoded
     * ({@code AsciiText}), no {@code String} made: each character one byte below 0x80, an ASCII
     * word is held exactly where its letters occur in either case. False (the text decides) for a
     * word past ASCII or an empty one.
     */
    boolean surelyAbsent(byte[] bytes, int offset, int length) {
      return ascii && !find(bytes, offset, offset + length, lower, false);
    }

    /**
     * This term's answers for events {@code [from, from + count)} of an ASCII block run, into
     * {@code into[0, count)}: 1 or 0 where {@link #matches} decides, {@link #UNDECIDED} where only
     * the event's text can tell — the same answers {@link #matches} and {@link #surelyAbsent} give
     * event by event. The run's texts lie back to back in its block, so the word's letters are
     * searched for once over them all: an event none of whose occurrences lies wholly inside its
     * own text is answered 0 without being visited, and only an event holding one is checked on its
     * own (as a whole term where that decides, between its own text's ends). A term past ASCII or
     * with a wildcard or directive it cannot rule out (not {@link #ascii}) is {@link #UNDECIDED}
     * for every event.
     */
    void answers(EventRun run, int from, int count, byte[] into) {
      if (!ascii || count == 0) {
        java.util.Arrays.fill(into, 0, count, (byte) UNDECIDED);
        return;
      }
      java.util.Arrays.fill(into, 0, count, (byte) 0);
      byte[] bytes = run.bytes();
      int size = lower.length();
      int end = run.textOffset(from + count - 1) + run.textLength(from + count - 1);
      int e = 0;
      for (int at = run.textOffset(from); ; ) {
        int found = indexOf(bytes, at, at, end, lower, false);
        if (found < 0) {
          return;
        }
        while (run.textOffset(from + e) + run.textLength(from + e) <= found) {
          e++; // texts are in event order, back to back: the event whose text holds found
        }
        int textStart = run.textOffset(from + e);
        int textEnd = textStart + run.textLength(from + e);
        if (found + size > textEnd) {
          at = found + 1; // runs into the next text: not an occurrence of this one's
          continue;
        }
        // a whole term of this text starts at found or later (no occurrence before found)
        into[e] =
            !decides
                ? UNDECIDED
                : !wholeTerm || indexOf(bytes, found, textStart, textEnd, lower, true) >= 0
                    ? (byte) 1
                    : 0;
        if (++e == count) {
          return;
        }
        at = textEnd;
      }
    }
  }

  private static boolean breaks(byte b) {
    char c = (char) b; // ASCII: the byte is the character, and the lower case breaks as it does
    return Segmenter.isMajorBreaker(c) || Segmenter.isMinorBreaker(c);
  }

  /** Whether {@code lower} is a non-empty word of ASCII characters (one byte each). */
  private static boolean asciiWord(String lower) {
    int size = lower.length();
    for (int i = 0; i < size; i++) {
      if (lower.charAt(i) >= 0x80) {
        return false;
      }
    }
    return size > 0;
  }

  /** Eight bytes of a text at once, in the order they lie (the byte at the index lowest). */
  private static final java.lang.invoke.VarHandle WORDS =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
          long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  /**
   * Whether {@code lower}'s letters occur in either case in {@code bytes[offset, end)} — when
   * {@code wholeTerm}, only between breakers (or the text's ends). Eight start positions are tried
   * at once: a position is a candidate only where both the word's first and its last character are
   * there in either case (two 8-byte loads, compared byte by byte within the words), and only
   * candidates are checked character by character; the last positions, fewer than eight, one by
   * one.
   */
  private static boolean find(byte[] bytes, int offset, int end, String lower, boolean wholeTerm) {
    return indexOf(bytes, offset, offset, end, lower, wholeTerm) >= 0;
  }

  /**
   * Where {@link #find} finds {@code lower} first at or after {@code from} in the text {@code
   * bytes[offset, end)} (whose ends bound a whole term), or -1.
   */
  private static int indexOf(
      byte[] bytes, int from, int offset, int end, String lower, boolean wholeTerm) {
    int size = lower.length();
    int last = end - size;
    byte first = (byte) lower.charAt(0);
    byte upper = upperCase(first);
    byte lastByte = (byte) lower.charAt(size - 1);
    long firsts = (first & 0xFFL) * ONES;
    long uppers = (upper & 0xFFL) * ONES;
    long lasts = (lastByte & 0xFFL) * ONES;
    long lastUppers = (upperCase(lastByte) & 0xFFL) * ONES;
    int at = from;
    for (; at + 7 <= last; at += 8) {
      long starts = (long) WORDS.get(bytes, at);
      long ends = (long) WORDS.get(bytes, at + size - 1);
      long candidates =
          (equalBytes(starts, firsts) | equalBytes(starts, uppers))
              & (equalBytes(ends, lasts) | equalBytes(ends, lastUppers));
      while (candidates != 0) {
        int candidate = at + (Long.numberOfTrailingZeros(candidates) >>> 3);
        if (heldFrom(bytes, candidate, offset, end, lower, first, upper, wholeTerm)) {
          return candidate;
        }
        candidates &= candidates - 1;
      }
    }
    for (; at <= last; at++) {
      if (heldFrom(bytes, at, offset, end, lower, first, upper, wholeTerm)) {
        return at;
      }
    }
    return -1;
  }

  /** Whether {@code lower} is held at {@code at} of the text {@code bytes[offset, end)}. */
  private static boolean heldFrom(
      byte[] bytes,
      int at,
      int offset,
      int end,
      String lower,
      byte first,
      byte upper,
      boolean wholeTerm) {
    byte b = bytes[at];
    int size = lower.length();
    return (b == first || b == upper)
        && heldAt(bytes, at, lower, size)
        && (!wholeTerm
            || (at == offset || breaks(bytes[at - 1]))
                && (at + size == end || breaks(bytes[at + size])));
  }

  /** An ASCII letter's upper case; any other byte as it is. */
  private static byte upperCase(byte b) {
    return b >= 'a' && b <= 'z' ? (byte) (b - 0x20) : b;
  }

  /**
   * The high bit of each byte of {@code word} that may equal the byte {@code pattern} repeats:
   * every equal byte has it (the zero-byte test of {@code word ^ pattern}); a byte above an equal
   * one may have it too, which the candidate's own check settles.
   */
  private static long equalBytes(long word, long pattern) {
    long v = word ^ pattern;
    return (v - ONES) & ~v & HIGHS;
  }

  /** Whether {@code lower}'s characters after its first follow {@code at}, in either case. */
  private static boolean heldAt(byte[] bytes, int at, String lower, int length) {
    for (int i = 1; i < length; i++) {
      char c = lower.charAt(i);
      byte b = bytes[at + i];
      if (b != c && !(c >= 'a' && c <= 'z' && b == c - 0x20)) {
        return false;
      }
    }
    return true;
  }

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
