package io.quarry.codecs.tokens;

import java.util.Arrays;

/**
 * The long quote-delimited spans of the texts a {@link TermSet} has taken since it was cleared (a
 * block's events), so that a span seen again adds nothing: {@code "} is a major breaker, so no term
 * crosses it, and a span's terms are a function of its bytes. In an access log the referer and the
 * user agent (about half of a line's tokens) repeat from line to line in a block; checking one such
 * span is one hash of its bytes and one lookup instead of a lookup per token.
 *
 * <p>Spans are told apart by their place in the text (the first, second … quote-delimited span),
 * and a place whose spans seldom repeat (a request line with a session id, a timestamp) stops being
 * checked for the rest of the block after {@link #TRIAL} tries, so a log whose spans never repeat
 * pays for a few dozen misses a block. The spans are a {@link ByteStringSet}, as the terms are, so
 * they are compared byte for byte: a hash collision never skips a span.
 */
final class SeenSpans {
  /** Shorter spans are cheaper to add term by term than to look up. */
  static final int MIN_LENGTH = 24;

  /** Places after this one are not checked. */
  static final int PLACES = 8;

  /** Tries at a place before its hit rate decides whether it is still checked. */
  static final int TRIAL = 32;

  private final ByteStringSet spans = new ByteStringSet();
  private final int[] tries = new int[PLACES];
  private final int[] hits = new int[PLACES];

  /**
   * Whether {@code text[start, end)}, the span at {@code place}, was seen before; when it was not
   * and is worth remembering, it is remembered now, so the caller must add its terms before the set
   * is used again.
   */
  boolean seenBefore(byte[] text, int start, int end, int place) {
    int length = end - start;
    if (length < MIN_LENGTH || place >= PLACES) {
      return false;
    }
    int tried = tries[place];
    if (tried >= TRIAL && hits[place] * 4 < tried) {
      return false; // seldom repeats here: not checked for the rest of the block
    }
    tries[place] = tried + 1;
    if (spans.add(text, start, length)) {
      return false;
    }
    hits[place]++;
    return true;
  }

  /** Forgets every span and every place's tries, keeping the arrays. */
  void clear() {
    spans.clear();
    Arrays.fill(tries, 0);
    Arrays.fill(hits, 0);
  }
}
