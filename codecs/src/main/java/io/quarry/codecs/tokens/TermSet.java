package io.quarry.codecs.tokens;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.BytesTermAttribute;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.UnicodeUtil;

/**
 * The distinct {@link Segmenter} terms of many texts (the events of one block), as UTF-8 bytes in
 * one pool behind an open-addressing hash set ({@link ByteStringSet}), handed to Lucene once each
 * ({@link #tokenStream}). Lucene would hash every term occurrence of a block; this hashes them
 * here, into a small table that stays in cache, and Lucene sees each distinct term once. The terms
 * are exactly those {@link TermTokenStream} gives each text: ASCII texts lower-cased byte by byte,
 * others through Unicode lower-casing (root locale) and their terms UTF-8 encoded. A long quoted
 * span of an ASCII text that an earlier text of the set had at the same place is not split again
 * ({@link SeenSpans}). An ASCII text is lower-cased and its bytes classified in one pass into bit
 * masks ({@link AsciiClasses}: with the Vector API where the JVM has it), and its tokens and parts
 * are found by the masks' bits, not by a table lookup and a branch per byte (session 48: -18% of
 * {@code TermSetCpu}'s CPU an event). Reusable after {@link #clear}; not thread-safe.
 */
public final class TermSet {
  private final ByteStringSet terms = new ByteStringSet(); // the distinct terms, first-added order
  private byte[] lower = new byte[256]; // the current ASCII text, lower-cased
  private final SeenSpans spans = new SeenSpans(); // long quoted spans added since clear()
  private final TableSplit table; // null: split by the classifier's masks

  /** A set that splits ASCII texts as this JVM's classifier does best ({@link #classifier}). */
  public TermSet() {
    this(CLASSES instanceof AsciiClasses.Scalar);
  }

  /**
   * A set that splits ASCII texts by a byte-class table ({@link TableSplit}) when {@code byTable},
   * else by the classifier's bit masks: the same terms either way (tests run both).
   */
  TermSet(boolean byTable) {
    this.table = byTable ? new TableSplit() : null;
  }

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
      bytes[i] = (byte) c;
    }
    if (table != null) {
      lowerInto(bytes, 0, length, bytes);
      addLowered(bytes, length);
    } else {
      addClassified(bytes, 0, length);
    }
  }

  /**
   * Adds every term of a text given as its ASCII bytes (each below 0x80, one per character): the
   * terms {@link #add(String)} gives that text, lower-cased byte by byte without reading it as
   * characters again.
   */
  public void addAscii(byte[] text) {
    addAscii(text, 0, text.length);
  }

  /** {@link #addAscii(byte[])} of the text {@code text[offset, offset + length)}. */
  public void addAscii(byte[] text, int offset, int length) {
    if (lower.length < length) {
      lower = new byte[Math.max(length, lower.length * 2)];
    }
    if (table != null) {
      lowerInto(text, offset, length, lower);
      addLowered(lower, length);
    } else {
      addClassified(text, offset, length);
    }
  }

  /**
   * The ASCII bytes {@code text[offset, offset + length)} lower-cased into {@code lower[0, length)}
   * (the same array and place allowed), eight at a time.
   */
  private static void lowerInto(byte[] text, int offset, int length, byte[] lower) {
    int i = 0;
    for (; i + Long.BYTES <= length; i += Long.BYTES) {
      LONGS.set(lower, i, lowerCase((long) LONGS.get(text, offset + i)));
    }
    for (; i < length; i++) {
      byte b = text[offset + i];
      lower[i] = (byte) (b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b);
    }
  }

  /**
   * The table's way ({@link TableSplit}): the terms of a lower-cased ASCII text, span by span
   * between its quotes, skipping a long span added before ({@link SeenSpans}).
   */
  private void addLowered(byte[] text, int length) {
    int start = 0;
    int place = 0;
    for (int quote; (quote = nextQuote(text, start, length)) >= 0; start = quote + 1) {
      if (!spans.seenBefore(text, start, quote, place++)) {
        table.addSpan(text, start, quote, terms);
      }
    }
    if (!spans.seenBefore(text, start, length, place)) {
      table.addSpan(text, start, length, terms);
    }
  }

  /**
   * Lower-cases and classifies the ASCII text {@code text[offset, offset + length)} into {@link
   * #lower} and the masks ({@link AsciiClasses}), then adds its terms span by span between its
   * quotes, skipping a long span added before ({@link SeenSpans}): a quote is a major breaker, so
   * the terms are the same.
   */
  private void addClassified(byte[] text, int offset, int length) {
    int words = AsciiClasses.words(length);
    if (majors.length < words) {
      int grown = Math.max(words, majors.length * 2);
      majors = new long[grown];
      minors = new long[grown];
      quotes = new long[grown];
    }
    CLASSES.classify(text, offset, length, lower, majors, minors, quotes);
    byte[] bytes = lower;
    int start = 0;
    int place = 0;
    for (int quote; (quote = nextSet(quotes, start, length)) < length; start = quote + 1) {
      if (!spans.seenBefore(bytes, start, quote, place++)) {
        addSpan(bytes, start, quote);
      }
    }
    if (!spans.seenBefore(bytes, start, length, place)) {
      addSpan(bytes, start, length);
    }
  }

  private static final AsciiClasses CLASSES = AsciiClasses.CHOSEN;

  /**
   * The byte classifier this JVM runs, as the server reports it (startup log line, {@code GET /}'s
   * {@code termClassifier}): {@code vector 512-bit permutes}, {@code vector 512-bit compares},
   * {@code vector 256-bit compares}, {@code scalar (no jdk.incubator.vector)}...
   */
  public static String classifier() {
    return CLASSES.toString();
  }

  // the current ASCII text's bytes by class, a bit each ({@link AsciiClasses})
  private long[] majors = new long[8];
  private long[] minors = new long[8];
  private long[] quotes = new long[8];

  /**
   * The first set bit at or after {@code from} in {@code words}, or {@code limit} when there is
   * none before it ({@code from <= limit <= } the mask's text length).
   */
  private static int nextSet(long[] words, int from, int limit) {
    int word = from >>> 6;
    long bits = words[word] & (-1L << from);
    while (bits == 0) {
      if (++word << 6 >= limit) {
        return limit;
      }
      bits = words[word];
    }
    return Math.min(limit, (word << 6) + Long.numberOfTrailingZeros(bits));
  }

  /** {@link #nextSet} of the clear bits. */
  private static int nextClear(long[] words, int from, int limit) {
    int word = from >>> 6;
    long bits = ~words[word] & (-1L << from);
    while (bits == 0) {
      if (++word << 6 >= limit) {
        return limit;
      }
      bits = ~words[word];
    }
    return Math.min(limit, (word << 6) + Long.numberOfTrailingZeros(bits));
  }

  /**
   * Eight ASCII bytes (each below 0x80) lower-cased at once: a byte's high bit is set by adding
   * {@code 0x80 - 'A'} when it is at least {@code 'A'}, by adding {@code 0x80 - 'Z' - 1} when it is
   * past {@code 'Z'} (no sum carries into the next byte), and {@code 0x20} is set where the first
   * is and the second is not.
   */
  static long lowerCase(long ascii) {
    long atLeastA = ascii + 0x3F3F3F3F3F3F3F3FL;
    long pastZ = ascii + 0x2525252525252525L;
    return ascii | ((atLeastA & ~pastZ & HIGH_BITS) >>> 2);
  }

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

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

  /**
   * {@link Segmenter#forEachTerm} over a range of an ASCII text's lower-cased bytes that starts and
   * ends at a major breaker or the text's ends, a token at a time by the masks' bits: each token
   * (from the next clear bit of the majors to the next set one), and its parts between minor
   * breakers (the minors' set bits in it) when one was in it, each at most {@link
   * Segmenter#MAX_TERM_LENGTH} long. A token with parts is added first, in one lookup: when the set
   * had it, it was added with its parts before, so they are skipped — in a block most such tokens
   * (addresses, times, paths, user agents' words) repeat.
   */
  private void addSpan(byte[] text, int from, int end) {
    long[] majors = this.majors;
    long[] minors = this.minors;
    for (int i = from; ; ) {
      int start = nextClear(majors, i, end);
      if (start == end) {
        return;
      }
      i = nextSet(majors, start, end);
      int minor = nextSet(minors, start, i);
      if (minor == i) {
        addTerm(text, start, i);
        continue;
      }
      if (i - start <= Segmenter.MAX_TERM_LENGTH && !terms.add(text, start, i - start)) {
        continue; // the whole was in the set, so were its parts
      }
      int partStart = start;
      for (; minor < i; minor = nextSet(minors, minor + 1, i)) {
        addTerm(text, partStart, minor);
        partStart = minor + 1;
      }
      addTerm(text, partStart, i);
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
    terms.add(bytes, offset, length);
  }

  /** The number of distinct terms. */
  public int size() {
    return terms.size();
  }

  /** Empties the set, keeping its arrays. */
  public void clear() {
    terms.clear();
    spans.clear();
  }

  /** The terms, in first-added order (for tests and tools). */
  public List<String> terms() {
    List<String> list = new ArrayList<>(terms.size());
    for (int id = 0; id < terms.size(); id++) {
      int start = terms.start(id);
      list.add(new String(terms.pool(), start, terms.end(id) - start, StandardCharsets.UTF_8));
    }
    return list;
  }

  /**
   * Each distinct term once, as slices of the pool: the set must not change until Lucene has
   * consumed the stream (the document is added). The same stream each call (rewound by {@code
   * reset}), so a block does not pay for a new {@link TokenStream}'s attribute map: Lucene's {@code
   * AttributeSource.addAttribute} was ~0.4% of the ingest's request threads (session 48), more than
   * the stream's own walk over the terms. One stream at a time, as the set is used.
   */
  public TokenStream tokenStream() {
    if (stream == null) {
      stream = new Stream();
    }
    return stream;
  }

  private Stream stream; // made on first use: a set that is only counted needs none

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
      if (next == terms.size()) {
        return false;
      }
      clearAttributes();
      slice.bytes = terms.pool();
      slice.offset = terms.start(next);
      slice.length = terms.end(next) - slice.offset;
      term.setBytesRef(slice);
      next++;
      return true;
    }
  }
}
