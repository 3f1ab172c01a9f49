package io.quarry.codecs.tokens;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.BytesTermAttribute;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.StringHelper;
import org.apache.lucene.util.UnicodeUtil;

/**
 * The distinct {@link Segmenter} terms of many texts (the events of one block), as UTF-8 bytes in
 * one pool behind an open-addressing hash set, handed to Lucene once each ({@link #tokenStream}).
 * Lucene would hash every term occurrence of a block; this hashes them here, into a small table
 * that stays in cache, and Lucene sees each distinct term once. The terms are exactly those {@link
 * TermTokenStream} gives each text: ASCII texts lower-cased byte by byte, others through Unicode
 * lower-casing (root locale) and their terms UTF-8 encoded. Reusable after {@link #clear}; not
 * thread-safe.
 */
public final class TermSet {
  private byte[] pool = new byte[1 << 12]; // the distinct terms' bytes back to back
  private int poolSize;
  private int[] starts = new int[64]; // term t is pool[starts[t], starts[t + 1])
  private int size;
  private int[] table = new int[128]; // term id + 1, 0 for empty; length a power of two
  private byte[] lower = new byte[256]; // the current ASCII text, lower-cased
  private final AsciiBytes asciiText = new AsciiBytes();

  /** Adds every term of {@code text}. */
  public void add(String text) {
    int length = text.length();
    if (lower.length < length) {
      lower = new byte[Math.max(length, lower.length * 2)];
    }
    byte[] bytes = lower;
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      if (c >= 0x80) {
        addChars(text.toLowerCase(Locale.ROOT));
        return;
      }
      bytes[i] = (byte) (c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
    }
    asciiText.reset(bytes, length);
    Segmenter.forEachTerm(asciiText, (start, end) -> add(bytes, start, end - start));
  }

  /** A text with a non-ASCII character: its terms UTF-8 encoded as Lucene encodes characters. */
  private void addChars(String lowerText) {
    Segmenter.forEachTerm(
        lowerText,
        (start, end) -> {
          int most = (end - start) * UnicodeUtil.MAX_UTF8_BYTES_PER_CHAR;
          if (utf8.length < most) {
            utf8 = new byte[Math.max(most, utf8.length * 2)];
          }
          add(utf8, 0, UnicodeUtil.UTF16toUTF8(lowerText, start, end - start, utf8));
        });
  }

  private byte[] utf8 = new byte[256]; // one term of a non-ASCII text

  /** Adds one term's bytes (kept when new). */
  private void add(byte[] bytes, int offset, int length) {
    int hash = StringHelper.murmurhash3_x86_32(bytes, offset, length, 0x9747b28c);
    int mask = table.length - 1;
    for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
      int id = table[slot] - 1;
      if (id < 0) {
        table[slot] = append(bytes, offset, length) + 1;
        if (2 * size > table.length) {
          rehash();
        }
        return;
      }
      int start = starts[id];
      if (starts[id + 1] - start == length
          && Arrays.equals(pool, start, start + length, bytes, offset, offset + length)) {
        return;
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
      int start = starts[id];
      int hash = StringHelper.murmurhash3_x86_32(pool, start, starts[id + 1] - start, 0x9747b28c);
      int slot = hash & mask;
      while (grown[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      grown[slot] = id + 1;
    }
    table = grown;
  }

  /** The number of distinct terms. */
  public int size() {
    return size;
  }

  /** Empties the set, keeping its arrays. */
  public void clear() {
    if (size > 0) {
      Arrays.fill(table, 0);
    }
    size = 0;
    poolSize = 0;
  }

  /** The terms, in first-added order (for tests and tools). */
  public List<String> terms() {
    List<String> terms = new ArrayList<>(size);
    for (int id = 0; id < size; id++) {
      terms.add(new String(pool, starts[id], starts[id + 1] - starts[id], StandardCharsets.UTF_8));
    }
    return terms;
  }

  /**
   * Each distinct term once, as slices of the pool: the set must not change until Lucene has
   * consumed the stream (the document is added).
   */
  public TokenStream tokenStream() {
    return new Stream();
  }

  private final class Stream extends TokenStream {
    private final BytesTermAttribute term = addAttribute(BytesTermAttribute.class);
    private final BytesRef slice = new BytesRef();
    private int next;

    @Override
    public void reset() throws java.io.IOException {
      super.reset();
      next = 0;
    }

    @Override
    public boolean incrementToken() {
      if (next == size) {
        return false;
      }
      clearAttributes();
      slice.bytes = pool;
      slice.offset = starts[next];
      slice.length = starts[next + 1] - starts[next];
      term.setBytesRef(slice);
      next++;
      return true;
    }
  }

  /** The first {@code length} bytes of an ASCII array seen as characters. */
  private static final class AsciiBytes implements CharSequence {
    private byte[] bytes;
    private int length;

    void reset(byte[] bytes, int length) {
      this.bytes = bytes;
      this.length = length;
    }

    @Override
    public int length() {
      return length;
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
      return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
    }
  }
}
