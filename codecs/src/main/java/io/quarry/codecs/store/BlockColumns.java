package io.quarry.codecs.store;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.LeafReader;

/**
 * The columns a segment's block payloads hold elsewhere (event block version 2, issue 23): a field
 * of which every event of a block has exactly one value is held once, by the block's value counts
 * ({@link BlockValueCounts}: its distinct values) and codes ({@link BlockValueCodes}: each event's
 * value among them), not also as a column in the payload; since session 33 also a field some events
 * lack and each other has one value of, by its values and its codes with "no value" ({@link
 * BlockValueCodes#PARTIAL}). This reads such a column back: the block's ordinals looked up to text
 * once per value, and each event's code.
 *
 * <p>One per scan of a segment and thread (doc-values iterators are neither shared nor reset). A
 * field's iterators are opened when the field is first asked for, so a search that never asks for a
 * field never reads its doc values; they move forward only, so a block at or before the last one
 * read of that field (the time-ordered scan takes an unsorted segment's blocks by time, not doc
 * order: {@link BlockOrder}) opens them again. The texts of a field's segment ordinals come from
 * its {@link OrdinalTexts} (a small cache, or the dictionary decoded whole once a scan meets many
 * of its values), since looking an ordinal up decompresses a block of Lucene's terms dictionary.
 */
final class BlockColumns {
  private final LeafReader reader;
  private final Map<String, Field> fields = new HashMap<>();

  private final SegmentDictionaries dictionaries;

  /** The columns of {@code reader}'s blocks, for one scan of them (no dictionary shared). */
  BlockColumns(LeafReader reader) {
    this(reader, new SegmentDictionaries());
  }

  /**
   * The columns of {@code reader}'s blocks for one slice of a scan, the dictionaries decoded whole
   * shared with its other slices ({@code dictionaries}).
   */
  BlockColumns(LeafReader reader, SegmentDictionaries dictionaries) {
    this.reader = reader;
    this.dictionaries = dictionaries;
  }

  /**
   * Block document {@code doc}'s column of {@code field}, for its {@code events} events.
   *
   * @throws CorruptIndexException when the block has no counts or codes of the field, or they do
   *     not give each of its events exactly one value
   */
  Values read(int doc, String field, int events) throws IOException {
    return values(doc, field, events, true);
  }

  /**
   * Block document {@code doc}'s column of {@code field} from its doc values, or null when they do
   * not give each of its {@code events} events exactly one value or none (the block's payload then
   * holds the field, if any event has it): read without the payload, whether the payload holds the
   * column elsewhere or, in an older block, also as a column of its own (the same values).
   */
  Values readIfCounted(int doc, String field, int events) throws IOException {
    return values(doc, field, events, false);
  }

  private Values values(int doc, String field, int events, boolean required) throws IOException {
    Field open = fields.get(field);
    if (open == null || doc <= open.last) {
      open =
          new Field(
              BlockValueCounts.openValues(reader, field),
              BlockValueCodes.open(reader, field),
              BlockValueCodes.openPartial(reader, field),
              open == null ? null : open.cache,
              field,
              dictionaries);
      fields.put(field, open);
    }
    open.last = doc;
    BlockValueCounts counts = open.counts;
    if (counts == null || !counts.advanceValues(doc)) {
      return missing(required, doc, field, "has no values of it");
    }
    boolean partial = !counts.counted(); // some event lacks the field: codes with "no value"
    if (!partial && counts.total() != events) {
      return missing(
          required,
          doc,
          field,
          "its counts add up to " + counts.total() + " of " + events + " events");
    }
    long[] ords = new long[counts.size()];
    for (int i = 0; i < ords.length; i++) {
      ords[i] = counts.ord(i);
    }
    int[] codes = new int[events];
    boolean coded =
        partial
            ? open.partial.read(doc, events, ords.length + 1, codes)
            : open.codes.read(doc, events, ords.length, codes);
    if (!coded) {
      return missing(required, doc, field, "has no value codes of it");
    }
    return new Values(ords, codes, open.cache, counts.dictionary(), !partial);
  }

  /**
   * Null for a column the caller may read from the payload instead.
   *
   * @throws CorruptIndexException for one the payload holds elsewhere
   */
  private static Values missing(boolean required, int doc, String field, String problem)
      throws CorruptIndexException {
    if (!required) {
      return null;
    }
    throw new CorruptIndexException(
        "block holds column '" + field + "' elsewhere but " + problem, "doc " + doc);
  }

  /**
   * The text of segment ordinal {@code ord} of {@code field}, a field {@link #read} has read (the
   * scan's ordinals of it: {@link Values#ordinal}).
   */
  String text(String field, long ord) throws IOException {
    Field open = fields.get(field);
    return open.cache.text(open.counts.dictionary(), ord);
  }

  /**
   * Every text of {@code field}'s segment ordinals by ordinal once this scan decoded its dictionary
   * whole ({@link OrdinalTexts#whole}), else null.
   */
  String[] wholeTexts(String field) {
    Field open = fields.get(field);
    return open == null || open.cache == null ? null : open.cache.whole();
  }

  /**
   * One block's column: its distinct values' segment ordinals, each event's index among them (the
   * values' count for an event without the field), the texts looked up when first asked.
   */
  static final class Values {
    private final long[] ords;
    private final int[] codes;
    private final OrdinalTexts texts;
    private final org.apache.lucene.index.SortedSetDocValues dictionary;
    private final boolean every; // every event has a value (no code says "no value")
    private String[] values; // each distinct value's text once asked (a column read by ordinal

    // asks none)

    Values(
        long[] ords,
        int[] codes,
        OrdinalTexts texts,
        org.apache.lucene.index.SortedSetDocValues dictionary,
        boolean every) {
      this.ords = ords;
      this.codes = codes;
      this.texts = texts;
      this.dictionary = dictionary;
      this.every = every;
    }

    /**
     * The value every event of the block has, when they all have the same one (the block's counts
     * hold one value, and it counts every event), else null.
     */
    String onlyValue() throws IOException {
      return every && ords.length == 1 ? value(0) : null;
    }

    /** Event {@code e}'s one value, or null when it has none. */
    String value(int e) throws IOException {
      int code = codes[e];
      if (code >= ords.length) {
        return null;
      }
      if (values == null) {
        values = new String[ords.length];
      }
      String value = values[code];
      if (value == null) {
        value = texts.text(dictionary, ords[code]);
        values[code] = value;
      }
      return value;
    }

    /** The segment ordinal of event {@code e}'s one value, or -1 when it has none. */
    long ordinal(int e) {
      int code = codes[e];
      return code < ords.length ? ords[code] : -1;
    }
  }

  /**
   * A field's iterators, the last block document read through them, and its cache of ordinals'
   * texts (kept when the iterators are opened again: ordinals are the segment's).
   */
  private static final class Field {
    final BlockValueCounts counts;
    final BlockValueCodes codes;
    final BlockValueCodes partial;
    final OrdinalTexts cache;
    int last = -1;

    Field(
        BlockValueCounts counts,
        BlockValueCodes codes,
        BlockValueCodes partial,
        OrdinalTexts cache,
        String field,
        SegmentDictionaries dictionaries) {
      this.counts = counts;
      this.codes = codes;
      this.partial = partial;
      this.cache =
          cache != null || counts == null
              ? cache
              : new OrdinalTexts(field, counts.valueCount(), dictionaries);
    }
  }
}
