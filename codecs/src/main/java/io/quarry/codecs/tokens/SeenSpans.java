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
 * pays for a few dozen misses a block. Spans are compared byte for byte: a hash collision never
 * skips a span.
 */
final class SeenSpans {
  /** Shorter spans are cheaper to add term by term than to look up. */
  static final int MIN_LENGTH = 24;

  /** Places after this one are not checked. */
  static final int PLACES = 8;

  /** Tries at a place before its hit rate decides whether it is still checked. */
  static final int TRIAL = 32;

  private byte[] pool = new byte[1 << 12];
  private int poolSize;
  private int[] starts = new int[64]; // span s is pool[starts[s], starts[s + 1])
  private int size;
  private int[] table = new int[128]; // span id + 1, 0 for empty; length a power of two
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
    int hash = TermSet.hash(text, start, length);
    int mask = table.length - 1;
    for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
      int id = table[slot] - 1;
      if (id < 0) {
        table[slot] = append(text, start, length) + 1;
        if (2 * size > table.length) {
          rehash();
        }
        return false;
      }
      int from = starts[id];
      if (starts[id + 1] - from == length && TermSet.same(pool, from, text, start, length)) {
        hits[place]++;
        return true;
      }
    }
  }

  private int append(byte[] bytes, int offset, int length) {
    if (poolSize + length > pool.length) {
      pool = Arrays.copyOf(pool, Math.max(pool.length * 2, poolSize + length));
    }
    System.arraycopy(bytes, offset, pool, poolSize, length);
    poolSize += length;
    if (size + 2 > starts.length) {
      starts = Arrays.copyOf(starts, starts.length * 2);
    }
    starts[++size] = poolSize;
    return size - 1;
  }

  private void rehash() {
    int[] grown = new int[table.length * 2];
    int mask = grown.length - 1;
    for (int id = 0; id < size; id++) {
      int from = starts[id];
      int slot = TermSet.hash(pool, from, starts[id + 1] - from) & mask;
      while (grown[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      grown[slot] = id + 1;
    }
    table = grown;
  }

  /** Forgets every span and every place's tries, keeping the arrays. */
  void clear() {
    if (size > 0) {
      Arrays.fill(table, 0);
    }
    size = 0;
    poolSize = 0;
    Arrays.fill(tries, 0);
    Arrays.fill(hits, 0);
  }
}
