package io.quarry.codecs.tokens;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * One pass over an ASCII text that lower-cases it and classifies every byte for {@link TermSet}:
 * three bit masks, one bit a byte in {@code long} words (byte {@code i} is bit {@code i & 63} of
 * word {@code i >>> 6}) — the {@link Segmenter}'s major breakers, its minor breakers, and the
 * quotes. The term set then walks tokens by the masks' bits ({@link Long#numberOfTrailingZeros})
 * instead of looking up each byte's class in a table and branching on it.
 *
 * <p>Two implementations: {@link VectorAsciiClasses} (the Vector API, a vector of bytes at a time,
 * chosen when the JVM has {@code jdk.incubator.vector} and C2, as the server runs) and the scalar
 * one here, byte by byte from the {@link Segmenter}'s own predicates; they give the same masks
 * ({@code AsciiClassesTest}: every byte value below 0x80 at every place of texts up to 130 bytes
 * long, around every vector width, and random texts).
 */
abstract class AsciiClasses {
  /** The classifier this JVM runs. */
  static final AsciiClasses CHOSEN = choose();

  AsciiClasses() {}

  /** The words of a mask of {@code length} bytes: one more bit than the text, always set. */
  static int words(int length) {
    return (length >>> 6) + 1;
  }

  /**
   * Lower-cases {@code text[offset, offset + length)}, each byte below 0x80, into {@code lower[0,
   * length)} and sets the masks' first {@link #words} words: {@code majors} has the major breakers
   * and every bit from {@code length} on (so a token's end is always found), {@code minors} the
   * minor breakers, {@code quotes} the {@code "}. {@code text} may be {@code lower} itself,
   * lower-cased already.
   */
  abstract void classify(
      byte[] text,
      int offset,
      int length,
      byte[] lower,
      long[] majors,
      long[] minors,
      long[] quotes);

  /**
   * What runs ({@link TermSet#classifier}): {@code vector 512-bit permutes}, {@code vector 256-bit
   * compares}, {@code scalar (why)}.
   */
  @Override
  public abstract String toString();

  private static final byte PART = 0;
  private static final byte MINOR = 1;
  private static final byte MAJOR = 2;

  /** {@link Segmenter}'s breakers for the bytes below 0x80 (PART from 0x80 on). */
  private static final byte[] CLASS = new byte[0x100]; // indexed by (byte & 0xFF): no check

  static {
    for (char c = 0; c < 0x80; c++) {
      CLASS[c] = Segmenter.isMajorBreaker(c) ? MAJOR : Segmenter.isMinorBreaker(c) ? MINOR : PART;
    }
  }

  /**
   * Bytes {@code [from, to)} of the text classified one at a time into the masks (whose words there
   * must be zero) and lower-cased: a vector classifier's text shorter than one vector.
   */
  static void classifyBytes(
      byte[] text,
      int offset,
      int from,
      int to,
      byte[] lower,
      long[] majors,
      long[] minors,
      long[] quotes) {
    for (int i = from; i < to; i++) {
      byte b = text[offset + i];
      lower[i] = (byte) (b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b);
    }
    breakers(lower, from, to, majors, minors);
    for (int i = from; i < to; i++) {
      if (lower[i] == '"') {
        quotes[i >>> 6] |= 1L << i;
      }
    }
  }

  /**
   * The major and minor breakers among the lower-cased bytes {@code [from, to)} or'ed into the
   * masks, a word's bits gathered in registers (a store to the word a byte, each waiting for the
   * one before, took the scalar classifier to 1.7 times main's whole term set in {@code
   * TermSetCpu}).
   */
  private static void breakers(byte[] lower, int from, int to, long[] majors, long[] minors) {
    for (int i = from; i < to; ) {
      int wordEnd = Math.min(to, (i & ~63) + 64);
      long major = 0;
      long minor = 0;
      for (; i < wordEnd; i++) {
        int kind = CLASS[lower[i] & 0xFF];
        major |= (long) (kind >>> 1 & 1) << i;
        minor |= (long) (kind & 1) << i;
      }
      majors[(i - 1) >>> 6] |= major;
      minors[(i - 1) >>> 6] |= minor;
    }
  }

  /** The masks' words for a text of {@code length} bytes zeroed. */
  static void clear(int length, long[] majors, long[] minors, long[] quotes) {
    int words = words(length);
    Arrays.fill(majors, 0, words, 0);
    Arrays.fill(minors, 0, words, 0);
    Arrays.fill(quotes, 0, words, 0);
  }

  /** Sets the bits from {@code length} on in {@code majors}: the text's end ends every token. */
  static void endAt(int length, long[] majors) {
    majors[length >>> 6] |= -1L << length;
  }

  /**
   * Byte by byte (the JVM has no {@code jdk.incubator.vector}, no C2, or narrow vectors): eight
   * bytes lower-cased at once ({@link TermSet#lowerCase}), the quotes found eight bytes at once
   * ({@link TermSet#nextQuote}), each byte's breaker class from a table.
   */
  static final class Scalar extends AsciiClasses {
    private static final VarHandle LONGS =
        MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final String why;

    Scalar(String why) {
      this.why = why;
    }

    @Override
    void classify(
        byte[] text,
        int offset,
        int length,
        byte[] lower,
        long[] majors,
        long[] minors,
        long[] quotes) {
      clear(length, majors, minors, quotes);
      int i = 0;
      for (; i + Long.BYTES <= length; i += Long.BYTES) {
        LONGS.set(lower, i, TermSet.lowerCase((long) LONGS.get(text, offset + i)));
      }
      for (; i < length; i++) {
        byte b = text[offset + i];
        lower[i] = (byte) (b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b);
      }
      for (int q = TermSet.nextQuote(lower, 0, length);
          q >= 0;
          q = TermSet.nextQuote(lower, q + 1, length)) {
        quotes[q >>> 6] |= 1L << q;
      }
      breakers(lower, 0, length, majors, minors);
      endAt(length, majors);
    }

    @Override
    public String toString() {
      return "scalar (" + why + ")";
    }
  }

  private static AsciiClasses choose() {
    String unusable = io.quarry.codecs.vector.VectorSupport.unusable();
    if (unusable != null) {
      return new Scalar(unusable); // e.g. uncompiled vector code boxes every vector: far slower
    }
    AsciiClasses vector = VectorAsciiClasses.ifWider(); // typed as this class: loads nothing more
    return vector != null ? vector : new Scalar("vectors under 128 bits");
  }
}
