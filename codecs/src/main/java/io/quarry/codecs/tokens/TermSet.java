package io.quarry.codecs.tokens;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.BytesTermAttribute;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.UnicodeUtil;

/**
 * The distinct {@link Segmenter} terms of many texts (the events of one block), as UTF-8 bytes in
 * one pool behind an open-addressing hash set, handed to Lucene once each ({@link #tokenStream}).
 * Lucene would hash every term occurrence of a block; this hashes them here, into a small table
 * that stays in cache, and Lucene sees each distinct term once. The terms are exactly those {@link
 * TermTokenStream} gives each text: ASCII texts lower-cased byte by byte, others through Unicode
 * lower-casing (root locale) and their terms UTF-8 encoded. A long quoted span of an ASCII text
 * that an earlier text of the set had at the same place is not split again ({@link SeenSpans}).
 * Reusable after {@link #clear}; not thread-safe.
 */
public final class TermSet {
  private byte[] pool = new byte[1 << 12]; // the distinct terms' bytes back to back
  private int poolSize;
  private int[] starts = new int[64]; // term t is pool[starts[t], starts[t + 1])
  private int size;
  private int[] table = new int[128]; // term id + 1, 0 for empty; length a power of two
  private byte[] lower = new byte[256]; // the current ASCII text, lower-cased
  private final SeenSpans spans = new SeenSpans(); // long quoted spans added since clear()

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
    addLowered(bytes, length);
  }

  /**
   * Adds every term of a text given as its ASCII bytes (each below 0x80, one per character): the
   * terms {@link #add(String)} gives that text, lower-cased byte by byte without reading it as
   * characters again.
   */
  public void addAscii(byte[] text) {
    int length = text.length;
    if (lower.length < length) {
      lower = new byte[Math.max(length, lower.length * 2)];
    }
    byte[] bytes = lower;
    for (int i = 0; i < length; i++) {
      byte b = text[i];
      bytes[i] = (byte) (b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b);
    }
    addLowered(bytes, length);
  }

  /**
   * Adds the terms of a lower-cased ASCII text span by span between its quotes, skipping a long
   * span added before ({@link SeenSpans}): a quote is a major breaker, so the terms are the same.
   */
  private void addLowered(byte[] text, int length) {
    int start = 0;
    int place = 0;
    for (int quote; (quote = nextQuote(text, start, length)) >= 0; start = quote + 1) {
      if (!spans.seenBefore(text, start, quote, place++)) {
        addAscii(text, start, quote);
      }
    }
    if (!spans.seenBefore(text, start, length, place)) {
      addAscii(text, start, length);
    }
  }

  private static final long QUOTES = 0x2222222222222222L;
  private static final long LOW_BITS = 0x0101010101010101L;
  private static final long HIGH_BITS = 0x8080808080808080L;

  /** The first {@code "} in {@code text[from, to)}, eight bytes at a time, or -1. */
  static int nextQuote(byte[] text, int from, int to) {
    int i = from;
    for (; i + Long.BYTES <= to; i += Long.BYTES) {
      long word = (long) LONGS.get(text, i) ^ QUOTES; // a zero byte where a quote was
      long zeros = (word - LOW_BITS) & ~word & HIGH_BITS; // the lowest set bit is the first zero
      if (zeros != 0) {
        return i + (Long.numberOfTrailingZeros(zeros) >>> 3);
      }
    }
    for (; i < to; i++) {
      if (text[i] == '"') {
        return i;
      }
    }
    return -1;
  }

  private static final byte PART = 0;
  private static final byte MINOR = 1;
  private static final byte MAJOR = 2;

  /** {@link Segmenter}'s breakers for the ASCII characters, so a text is split in one pass. */
  private static final byte[] ASCII_CLASS = new byte[0x80];

  static {
    for (char c = 0; c < 0x80; c++) {
      ASCII_CLASS[c] =
          Segmenter.isMajorBreaker(c) ? MAJOR : Segmenter.isMinorBreaker(c) ? MINOR : PART;
    }
  }

  /**
   * {@link Segmenter#forEachTerm} over a range of an ASCII text's lower-cased bytes that starts and
   * ends at a major breaker or the text's ends, in one pass and without a call per character or
   * term: each token's parts between minor breakers, then the whole token when a minor breaker was
   * in it, each at most {@link Segmenter#MAX_TERM_LENGTH} long. A token with parts whose whole is
   * in the set already was added with its parts before, so it is looked up once and its parts
   * skipped: in a block most such tokens (addresses, times, paths, user agents' words) repeat.
   */
  private void addAscii(byte[] text, int from, int end) {
    int i = from;
    while (i < end) {
      while (i < end && ASCII_CLASS[text[i]] == MAJOR) {
        i++;
      }
      int start = i;
      boolean broken = false;
      for (; i < end; i++) {
        byte kind = ASCII_CLASS[text[i]];
        if (kind == MAJOR) {
          break;
        }
        broken |= kind == MINOR;
      }
      if (!broken) {
        addTerm(text, start, i);
        continue;
      }
      int wholeHash = 0;
      boolean whole = i - start <= Segmenter.MAX_TERM_LENGTH;
      if (whole) {
        wholeHash = hash(text, start, i - start);
        if (contains(text, start, i - start, wholeHash)) {
          continue;
        }
      }
      int partStart = start;
      for (int p = start; p < i; p++) {
        if (ASCII_CLASS[text[p]] == MINOR) {
          addTerm(text, partStart, p);
          partStart = p + 1;
        }
      }
      addTerm(text, partStart, i);
      if (whole) {
        add(text, start, i - start, wholeHash);
      }
    }
  }

  private void addTerm(byte[] text, int start, int end) {
    if (end > start && end - start <= Segmenter.MAX_TERM_LENGTH) {
      add(text, start, end - start);
    }
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
    add(bytes, offset, length, hash(bytes, offset, length));
  }

  /** Whether the set holds the term of {@code length} bytes whose {@link #hash} is {@code hash}. */
  private boolean contains(byte[] bytes, int offset, int length, int hash) {
    int mask = table.length - 1;
    for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
      int id = table[slot] - 1;
      if (id < 0) {
        return false;
      }
      int start = starts[id];
      if (starts[id + 1] - start == length && same(pool, start, bytes, offset, length)) {
        return true;
      }
    }
  }

  private void add(byte[] bytes, int offset, int length, int hash) {
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
      if (starts[id + 1] - start == length && same(pool, start, bytes, offset, length)) {
        return;
      }
    }
  }

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /**
   * A term's hash, eight bytes at a time: terms are short (a few bytes), where a byte-at-a-time
   * hash such as murmur3's tail loop costs most of a lookup.
   */
  static int hash(byte[] bytes, int offset, int length) {
    long h = length * 0x9E3779B97F4A7C15L;
    int i = 0;
    for (; i + Long.BYTES <= length; i += Long.BYTES) {
      h = (h ^ (long) LONGS.get(bytes, offset + i)) * 0xBF58476D1CE4E5B9L;
    }
    long tail = 0;
    for (int shift = 0; i < length; i++, shift += 8) {
      tail |= (bytes[offset + i] & 0xFFL) << shift;
    }
    h = (h ^ tail) * 0x94D049BB133111EBL;
    return (int) (h ^ (h >>> 31) ^ (h >>> 47));
  }

  /** Whether two ranges of {@code length} bytes are equal: eight at a time, for short terms. */
  static boolean same(byte[] a, int aFrom, byte[] b, int bFrom, int length) {
    int i = 0;
    for (; i + Long.BYTES <= length; i += Long.BYTES) {
      if ((long) LONGS.get(a, aFrom + i) != (long) LONGS.get(b, bFrom + i)) {
        return false;
      }
    }
    for (; i < length; i++) {
      if (a[aFrom + i] != b[bFrom + i]) {
        return false;
      }
    }
    return true;
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
      int hash = hash(pool, start, starts[id + 1] - start);
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
    spans.clear();
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
}
