package io.quarry.codecs.store;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.SortedSetDocValues;

/**
 * The texts of one keyword field's segment ordinals, for one scan of a segment (one thread):
 * looking an ordinal up ({@link SortedSetDocValues#lookupOrd}) decompresses a block of 64 terms of
 * Lucene's dictionary, so the texts met are kept in a direct-mapped cache ({@value #CACHED} entries
 * at most) while the lookups are few (a rare-term search, a field of a few values); once the
 * lookups missed the cache more than one in {@value #DECODE_SHARE} of the dictionary's values (at
 * least {@value #MIN_MISSES}), the whole dictionary is decoded in one pass (each block of terms
 * decompressed once) and every text read from it — what a {@code stats … by} over a field of many
 * values (a session id: a value in most events, most of the segment's values met) pays once instead
 * of once per block value; a dictionary another slice of the segment's scan decoded already is
 * taken at the first miss. A dictionary over {@value #MAX_DECODED} values stays on the cache.
 *
 * <p>Ski rental: a lookup costs about what decoding the 64 terms of its block in order does, so
 * decoding the whole dictionary after {@code values / 64} misses costs at most about twice what the
 * better of the two ways would have.
 */
final class OrdinalTexts {
  /** The most ordinals whose text the cache keeps. */
  static final int CACHED = 8192;

  /** The largest dictionary decoded whole (a string per value: ~70 bytes for a 32-byte value). */
  static final int MAX_DECODED = 1 << 18;

  /** The share of the dictionary's values the misses pass before it is decoded whole. */
  private static final int DECODE_SHARE = 64;

  /** The fewest misses before a dictionary is decoded whole. */
  private static final int MIN_MISSES = 256;

  private final String field;
  private final SegmentDictionaries dictionaries;
  private final long[] ords;
  private final String[] texts;
  private final int mask;
  private final long decodeAfter; // misses; Long.MAX_VALUE for a dictionary never decoded whole
  private long misses;
  private String[] all; // by ordinal, once the dictionary was decoded whole

  /**
   * The texts of {@code field}'s dictionary of {@code valueCount} values, decoded whole through
   * {@code dictionaries} (the segment's, shared by the scan's slices).
   */
  OrdinalTexts(String field, long valueCount, SegmentDictionaries dictionaries) {
    this.field = field;
    this.dictionaries = dictionaries;
    int size = (int) Math.min(CACHED, Long.highestOneBit(Math.max(1, valueCount - 1)) << 1);
    ords = new long[size];
    Arrays.fill(ords, -1);
    texts = new String[size];
    mask = size - 1;
    decodeAfter =
        valueCount <= MAX_DECODED
            ? Math.max(MIN_MISSES, valueCount / DECODE_SHARE)
            : Long.MAX_VALUE;
  }

  /** The text of ordinal {@code ord} of {@code dictionary} (the segment's values of the field). */
  String text(SortedSetDocValues dictionary, long ord) throws IOException {
    if (all != null) {
      return all[(int) ord];
    }
    int slot = (int) (ord & mask);
    if (ords[slot] == ord) {
      return texts[slot];
    }
    if (++misses >= decodeAfter || (all = dictionaries.ifDecoded(field)) != null) {
      all = dictionaries.decoded(field, dictionary);
      return all[(int) ord];
    }
    texts[slot] = dictionary.lookupOrd(ord).utf8ToString();
    ords[slot] = ord;
    return texts[slot];
  }

  /** Whether the dictionary was decoded whole (for tests). */
  boolean decodedWhole() {
    return all != null;
  }

  /**
   * Every text by ordinal once the dictionary was decoded whole, by this slice or another of the
   * segment's scan (the array they share, {@link SegmentDictionaries}), else null: not to be
   * changed.
   */
  String[] whole() {
    if (all == null) {
      all = dictionaries.ifDecoded(field);
    }
    return all;
  }
}
