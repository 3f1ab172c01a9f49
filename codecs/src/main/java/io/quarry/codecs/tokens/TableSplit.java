package io.quarry.codecs.tokens;

import java.util.Arrays;

/**
 * {@link TermSet}'s split of a lower-cased ASCII span by a byte-class table, one pass: the path of
 * a JVM whose classifier is scalar ({@link AsciiClasses.Scalar}: no {@code jdk.incubator.vector},
 * or no C2, as {@code quarry reindex}'s). There the bit masks cost more than they save — {@code
 * TermSetCpu} under C1 without the module, session 48: 906–947 ns an event by this table against
 * 1,647–1,690 by the scalar masks — so such a JVM splits as before session 48. The terms are the
 * same either way ({@code TermSetReferenceTest} runs both).
 */
final class TableSplit {
  private static final byte PART = 0;
  private static final byte MINOR = 1;
  private static final byte MAJOR = 2;

  /** {@link Segmenter}'s breakers for the ASCII characters, indexed by {@code byte & 0xFF}. */
  private static final byte[] ASCII_CLASS = new byte[0x100];

  static {
    for (char c = 0; c < 0x80; c++) {
      ASCII_CLASS[c] =
          Segmenter.isMajorBreaker(c) ? MAJOR : Segmenter.isMinorBreaker(c) ? MINOR : PART;
    }
  }

  private int[] minors = new int[64]; // where the current token's minor breakers are

  /**
   * Adds to {@code terms} the terms of {@code text[from, end)}, a range of an ASCII text's
   * lower-cased bytes that starts and ends at a major breaker or the text's ends: each token, and
   * its parts between minor breakers when one was in it, each at most {@link
   * Segmenter#MAX_TERM_LENGTH} long. A token with parts is looked up first: when the set had it, it
   * was added with its parts before, so they are skipped.
   */
  void addSpan(byte[] text, int from, int end, ByteStringSet terms) {
    int[] minors = this.minors;
    int i = from;
    while (i < end) {
      while (i < end && ASCII_CLASS[text[i] & 0xFF] == MAJOR) {
        i++;
      }
      int start = i;
      int broken = 0; // minor breakers in the token, their places in minors
      for (; i < end; i++) {
        byte kind = ASCII_CLASS[text[i] & 0xFF];
        if (kind != PART) {
          if (kind == MAJOR) {
            break;
          }
          if (broken == minors.length) {
            minors = this.minors = Arrays.copyOf(minors, broken * 2);
          }
          minors[broken++] = i;
        }
      }
      if (broken == 0) {
        addTerm(text, start, i, terms);
        continue;
      }
      if (i - start <= Segmenter.MAX_TERM_LENGTH && !terms.add(text, start, i - start)) {
        continue; // the whole was in the set, so were its parts
      }
      int partStart = start;
      for (int m = 0; m < broken; m++) {
        addTerm(text, partStart, minors[m], terms);
        partStart = minors[m] + 1;
      }
      addTerm(text, partStart, i, terms);
    }
  }

  private static void addTerm(byte[] text, int start, int end, ByteStringSet terms) {
    if (end > start && end - start <= Segmenter.MAX_TERM_LENGTH) {
      terms.add(text, start, end - start);
    }
  }
}
