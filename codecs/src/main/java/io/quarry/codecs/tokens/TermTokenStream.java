package io.quarry.codecs.tokens;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.BytesTermAttribute;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.util.BytesRef;

/**
 * The {@link Segmenter}'s terms of one text as a Lucene token stream, so an event's whole term set
 * is one field: far cheaper to index than a field per term. No string is made per term.
 *
 * <p>Machine data is nearly always ASCII, and every breaker is ASCII, so the usual path lower-cases
 * the text into one byte array and hands Lucene each term as a slice of it ({@link
 * BytesTermAttribute}): no UTF-16 copy and no UTF-8 encoding per term (together ~15% of the
 * indexing profile; the stream itself got 38% faster in {@code IngestBenchmark.tokenise}). Text
 * with any non-ASCII character takes the character path (Unicode lower-casing and whitespace),
 * which yields the same terms the search side computes.
 */
public abstract sealed class TermTokenStream extends TokenStream {
  private int[] ranges = new int[64];
  private int count;
  private int next;

  /** A token stream over the terms of {@code text}. */
  public static TermTokenStream of(String text) {
    byte[] ascii = asciiLowerCase(text);
    return ascii != null ? new Ascii(ascii) : new Chars(text.toLowerCase(Locale.ROOT));
  }

  /** The text lower-cased as ASCII bytes, or null when it has a non-ASCII character. */
  private static byte[] asciiLowerCase(String text) {
    byte[] bytes = new byte[text.length()];
    for (int i = 0; i < bytes.length; i++) {
      char c = text.charAt(i);
      if (c >= 0x80) {
        return null;
      }
      bytes[i] = (byte) (c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
    }
    return bytes;
  }

  /** The lower-cased text the ranges index into. */
  abstract CharSequence lower();

  /** Sets the term attribute to the range {@code [start, end)}. */
  abstract void setTerm(int start, int end);

  @Override
  public final void reset() throws java.io.IOException {
    super.reset();
    count = 0;
    next = 0;
    Segmenter.forEachTerm(
        lower(),
        (start, end) -> {
          if (2 * count + 2 > ranges.length) {
            ranges = Arrays.copyOf(ranges, ranges.length * 2);
          }
          ranges[2 * count] = start;
          ranges[2 * count + 1] = end;
          count++;
        });
  }

  @Override
  public final boolean incrementToken() {
    if (next == count) {
      return false;
    }
    clearAttributes();
    setTerm(ranges[2 * next], ranges[2 * next + 1]);
    next++;
    return true;
  }

  /** ASCII text: terms are slices of one lower-cased byte array. */
  static final class Ascii extends TermTokenStream {
    private final BytesTermAttribute term = addAttribute(BytesTermAttribute.class);
    private final byte[] lower;
    private final BytesRef slice;
    private final CharSequence chars;

    Ascii(byte[] lower) {
      this.lower = lower;
      this.slice = new BytesRef(lower);
      this.chars = new AsciiChars(lower);
    }

    @Override
    CharSequence lower() {
      return chars;
    }

    @Override
    void setTerm(int start, int end) {
      slice.offset = start;
      slice.length = end - start;
      term.setBytesRef(slice);
    }
  }

  /** Any other text: terms are copied out of the lower-cased string. */
  static final class Chars extends TermTokenStream {
    private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
    private final String lower;

    Chars(String lower) {
      this.lower = lower;
    }

    @Override
    CharSequence lower() {
      return lower;
    }

    @Override
    void setTerm(int start, int end) {
      term.setEmpty().append(lower, start, end);
    }
  }

  /** ASCII bytes seen as characters, for the segmenter. */
  private record AsciiChars(byte[] bytes) implements CharSequence {
    @Override
    public int length() {
      return bytes.length;
    }

    @Override
    public char charAt(int index) {
      return (char) bytes[index];
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return new String(bytes, start, end - start, StandardCharsets.ISO_8859_1);
    }

    @Override
    public String toString() {
      return new String(bytes, StandardCharsets.ISO_8859_1);
    }
  }
}
