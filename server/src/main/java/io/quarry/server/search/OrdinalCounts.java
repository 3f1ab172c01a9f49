package io.quarry.server.search;

import io.quarry.codecs.store.EventFields;
import io.quarry.codecs.store.IndexedFieldType;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.ql.engine.aggregation.CountPages;
import io.quarry.ql.engine.aggregation.PageAggregator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.util.BytesRef;

/**
 * The keyword value counts of one batch scan, per segment: the slices of a segment share its
 * ordinals, so each adds its counts to the segment's array when it ends, and the values are looked
 * up and handed to the aggregation (as a page of values and counts, {@link CountPages#values}) once
 * per segment at the end of the scan — not once per slice, which for a field of thousands of values
 * costs more than the counting itself.
 *
 * <p>Counts reach the aggregation at the end only, so a live preview does not show them until then.
 */
final class OrdinalCounts {
  private static final class Segment {
    final long[] counts;
    SortedSetDocValues dictionary;
    long rows;

    Segment(int values) {
      this.counts = new long[values];
    }
  }

  /**
   * The largest keyword dictionary a slice counts by ordinal (an int each: {@link IndexCounting},
   * {@link SeenValuesSkip}).
   */
  static final int MAX_COUNTED_ORDINALS = 1 << 21;

  /**
   * The keyword doc values of an index-time field in this segment, or null when there are none or
   * the field has another type here too (then the events' own values sort it out).
   */
  static SortedSetDocValues keywordValues(LeafReader reader, String field) throws IOException {
    FieldInfos infos = reader.getFieldInfos();
    for (IndexedFieldType type : IndexedFieldType.values()) {
      if (type != IndexedFieldType.KEYWORD
          && infos.fieldInfo(EventFields.valuesField(field, type)) != null) {
        return null;
      }
    }
    String name = EventFields.valuesField(field, IndexedFieldType.KEYWORD);
    FieldInfo info = infos.fieldInfo(name);
    if (info == null || info.getDocValuesType() != DocValuesType.SORTED_SET) {
      return null;
    }
    return reader.getSortedSetDocValues(name);
  }

  /** By the segment's core key, which its slices share. */
  private final Map<Object, Segment> segments = new IdentityHashMap<>();

  /**
   * Adds a slice's counts by ordinal of {@code dictionary} (the slice's own instance: it is only
   * read for lookups once the slice is done).
   */
  synchronized void add(Object segmentKey, SortedSetDocValues dictionary, int[] counts, long rows) {
    addTo(segmentKey, dictionary, counts.length, ord -> counts[ord], rows);
  }

  private void addTo(
      Object segmentKey,
      SortedSetDocValues dictionary,
      int size,
      java.util.function.IntToLongFunction counts,
      long rows) {
    Segment segment = segments.computeIfAbsent(segmentKey, key -> new Segment(size));
    for (int ord = 0; ord < size; ord++) {
      segment.counts[ord] += counts.applyAsLong(ord);
    }
    segment.dictionary = dictionary;
    segment.rows += rows;
  }

  /** A dictionary's values with non-zero counts, and those counts, position by position. */
  record Values(BytesBlock values, LongBlock counts) {}

  /**
   * The values of {@code dictionary} whose count by ordinal is not zero, their bytes straight from
   * the dictionary (no {@code String}), with those counts; null when every count is zero.
   */
  static Values values(
      SortedSetDocValues dictionary, int size, java.util.function.IntToLongFunction counts) {
    int present = 0;
    for (int ord = 0; ord < size; ord++) {
      if (counts.applyAsLong(ord) > 0) {
        present++;
      }
    }
    if (present == 0) {
      return null;
    }
    BytesBlock.Builder values = BytesBlock.builder(present);
    LongBlock.Builder byValue = LongBlock.builder(DataType.LONG, present);
    try {
      for (int ord = 0; ord < size; ord++) {
        long count = counts.applyAsLong(ord);
        if (count > 0) {
          BytesRef value = dictionary.lookupOrd(ord);
          values.append(value.bytes, value.offset, value.length);
          byValue.append(count);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Values(values.build(), byValue.build());
  }

  /** Segments counted whole from their term index: whether that was possible, by core key. */
  private final Map<Object, Boolean> counted = new IdentityHashMap<>();

  /**
   * Counts a whole segment once, the first time one of its slices asks: {@code counter} gives the
   * counts by ordinal of {@code dictionary}, or null when it cannot. Returns whether the segment
   * was counted so (the same answer for all its slices; only the first adds counts).
   */
  synchronized boolean countWhole(
      Object segmentKey, SortedSetDocValues dictionary, long rows, Counter counter)
      throws IOException {
    Boolean done = counted.get(segmentKey);
    if (done == null) {
      long[] counts = counter.counts();
      done = counts != null;
      counted.put(segmentKey, done);
      if (done) {
        addTo(segmentKey, dictionary, counts.length, ord -> counts[ord], rows);
      }
    }
    return done;
  }

  /** Counts of a whole segment by ordinal, or null when they cannot be had this way. */
  interface Counter {
    long[] counts() throws IOException;
  }

  /** Segments whose matching events were counted whole ({@link #firstToCount}). */
  private final java.util.Set<Object> rowsCounted =
      java.util.Collections.newSetFromMap(new IdentityHashMap<>());

  /** Whether this is the first slice of a segment to count its rows whole (the others add none). */
  synchronized boolean firstToCount(Object segmentKey) {
    return rowsCounted.add(segmentKey);
  }

  /**
   * Hands every segment's counts to {@code target} as pages of intermediate state ({@link
   * CountPages#values}: {@code field}'s values, their counts, the segment's rows).
   */
  synchronized void drainInto(PageAggregator target, String field) {
    for (Segment segment : segments.values()) {
      Values values = values(segment.dictionary, segment.counts.length, ord -> segment.counts[ord]);
      if (values != null) {
        target.addIntermediateInput(
            CountPages.values(field, values.values(), values.counts(), segment.rows));
      }
    }
    segments.clear();
  }
}
