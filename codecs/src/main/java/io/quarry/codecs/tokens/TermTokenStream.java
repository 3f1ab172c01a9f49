package io.quarry.codecs.tokens;

import java.util.Arrays;
import java.util.Locale;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * The {@link Segmenter}'s terms of one text as a Lucene token stream, so an event's whole term set
 * is one field: far cheaper to index than a field per term. Terms are copied out of the lower-cased
 * text into the term attribute; no string is made per term.
 */
public final class TermTokenStream extends TokenStream {
  private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
  private final String lower;
  private int[] ranges = new int[64];
  private int count;
  private int next;

  public TermTokenStream(String text) {
    this.lower = text.toLowerCase(Locale.ROOT);
  }

  @Override
  public void reset() throws java.io.IOException {
    super.reset();
    count = 0;
    next = 0;
    Segmenter.forEachTerm(
        lower,
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
  public boolean incrementToken() {
    if (next == count) {
      return false;
    }
    clearAttributes();
    int start = ranges[2 * next];
    int end = ranges[2 * next + 1];
    next++;
    term.setEmpty().append(lower, start, end);
    return true;
  }
}
