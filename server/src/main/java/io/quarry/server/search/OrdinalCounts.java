package io.quarry.server.search;

import io.quarry.ql.exec.Aggregator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.lucene.index.SortedSetDocValues;

/**
 * The keyword value counts of one batch scan, per segment: the slices of a segment share its
 * ordinals, so each adds its counts to the segment's array when it ends, and the values are looked
 * up and handed to the aggregation once per segment at the end of the scan — not once per slice,
 * which for a field of thousands of values costs more than the counting itself.
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

  /** Non-zero counts by ordinal of {@code dictionary}, keyed by the values. */
  static Map<String, Long> byValue(
      SortedSetDocValues dictionary, int size, java.util.function.IntToLongFunction counts) {
    Map<String, Long> byValue = new HashMap<>();
    try {
      for (int ord = 0; ord < size; ord++) {
        long count = counts.applyAsLong(ord);
        if (count > 0) {
          byValue.put(dictionary.lookupOrd(ord).utf8ToString(), count);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return byValue;
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

  /** Hands every segment's counts, by value, to {@code target}. */
  synchronized void drainInto(Aggregator target) {
    for (Segment segment : segments.values()) {
      target.addValueCounts(
          byValue(segment.dictionary, segment.counts.length, ord -> segment.counts[ord]),
          segment.rows);
    }
    segments.clear();
  }
}
