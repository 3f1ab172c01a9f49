package io.quarry.server.search;

import io.quarry.codecs.store.BlockTotals;
import io.quarry.codecs.store.BlockValueCounts;
import io.quarry.codecs.store.EventFields;
import io.quarry.codecs.store.EventVisitor;
import io.quarry.codecs.store.EventVisitor.DocShortcut;
import io.quarry.ql.engine.aggregation.CountPages;
import io.quarry.ql.engine.aggregation.CountShortcut;
import io.quarry.ql.engine.aggregation.PageAggregator;
import java.io.IOException;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.index.LeafReader;

/**
 * The block layout's counting for one slice of a batch scan (issue 23): a block that lies wholly in
 * the search's range and that {@link BlockCondition} decides is counted from its value counts,
 * never decoded — as the event layout counts a document from its doc values:
 *
 * <ul>
 *   <li>{@link CountShortcut.Kind#ROWS} ({@code stats count}): the block's matching events;
 *   <li>{@link CountShortcut.Kind#VALUES} ({@code stats count by f}, {@code top f}): each value's
 *       events, into the segment's {@link OrdinalCounts};
 *   <li>{@link CountShortcut.Kind#TIMED} ({@code timechart count by f}): the same per time bucket,
 *       for a block whose events all fall in one bucket.
 * </ul>
 *
 * Other blocks are visited event by event and checked, as before. The counts reach the partial
 * aggregation as pages of intermediate state ({@link CountPages}) when the slice ends.
 */
final class BlockCounting implements BlockCountSource {
  private static final CountShortcut.Kind ROWS = CountShortcut.Kind.ROWS;
  private static final CountShortcut.Kind VALUES = CountShortcut.Kind.VALUES;
  private static final CountShortcut.Kind TIMED = CountShortcut.Kind.TIMED;

  private final CountShortcut.Kind mode;
  private final CountShortcut shortcut;
  private final String field;
  private final BlockCondition condition;
  private final ZoneId zone;
  private final SearchControl control;
  private final PageAggregator partial;
  private final OrdinalCounts segmentCounts;

  private Object segmentKey;
  private BlockValueSource source;
  private int[] counts; // VALUES: by ordinal of the field
  private Map<Long, int[]> timed; // TIMED: by bucket start, by ordinal
  private long rows; // events counted
  private long started;

  /** Where the counted field's values come from in the current segment. */
  private record BlockValueSource(BlockCondition.FieldCounts counts) {}

  BlockCounting(
      CountShortcut shortcut,
      BlockCondition condition,
      ZoneId zone,
      SearchControl control,
      PageAggregator partial,
      OrdinalCounts segmentCounts) {
    this.shortcut = shortcut;
    this.mode = shortcut.kind();
    this.field = shortcut.field();
    this.condition = condition;
    this.zone = zone;
    this.control = control;
    this.partial = partial;
    this.segmentCounts = segmentCounts;
  }

  @Override
  public EventVisitor.BlockShortcut shortcut(LeafReader reader) throws IOException {
    BlockCondition.Segment segment = condition.segment(reader);
    if (lastSegment != null) {
      wordSelects += lastSegment.wordSelects();
    }
    lastSegment = segment;
    BlockCondition.FieldCounts values = null;
    if (mode != ROWS) {
      values = segment.counts(field);
      long size = values == null ? 0 : values.values.valueCount();
      if (values == null
          || size > OrdinalCounts.MAX_COUNTED_ORDINALS
          || (mode == TIMED && size > MAX_TIMED_ORDINALS)) {
        return null;
      }
      source = new BlockValueSource(values);
      segmentKey = IndexCounting.segmentKey(reader);
      if (mode == VALUES) {
        counts = new int[(int) size];
      } else {
        timed = new HashMap<>();
      }
    }
    started = System.nanoTime();
    BlockCondition.FieldCounts counted = values;
    long[] bucket = {Long.MAX_VALUE, Long.MIN_VALUE}; // the last bucket's [start, end)
    int[][] bucketCounts = new int[1][];
    Object key = IndexCounting.segmentKey(reader);
    EventVisitor.BlockShortcut perBlock =
        (doc, events, oldest, newest) -> {
          int verdict = segment.evaluate(doc, events);
          if (verdict == BlockCondition.READ) {
            return DocShortcut.VISIT;
          }
          int[] into = counts;
          if (mode == TIMED && verdict != BlockCondition.NONE) {
            if (newest < bucket[0] || newest >= bucket[1]) {
              bucket[0] = shortcut.span().floor(newest, zone);
              bucket[1] = shortcut.span().next(bucket[0], zone);
              bucketCounts[0] = null;
            }
            if (oldest < bucket[0]) {
              return DocShortcut.VISIT; // its events fall in several buckets
            }
            if (bucketCounts[0] == null) {
              int size = (int) counted.values.valueCount();
              bucketCounts[0] = timed.computeIfAbsent(bucket[0], start -> new int[size]);
            }
            into = bucketCounts[0];
          }
          if (mode != ROWS && verdict != BlockCondition.NONE && !counted.at(doc)) {
            return DocShortcut.VISIT; // some event lacks the counted field: its value may come from
            // search-time extraction
          }
          int selected = -1; // mixed on another field: how many events match, from the codes
          if (mode != ROWS && verdict >= 0 && segment.mixed() != counted) {
            selected =
                counted.coded(doc, events)
                    ? segment
                        .mixed()
                        .select(doc, events, segment.mixedSureCodes(), matching(events))
                    : -1;
            if (selected < 0) {
              return DocShortcut.VISIT; // a block without codes: its events are read
            }
          }
          if (control.readAndCheck(events)) {
            return DocShortcut.STOP;
          }
          if (verdict == BlockCondition.NONE) {
            return DocShortcut.TAKEN;
          }
          if (mode == ROWS) {
            rows += verdict == BlockCondition.ALL ? events : sureEvents(segment);
            return DocShortcut.TAKEN;
          }
          if (selected >= 0) {
            countEach(counted, selected, into);
            rows += selected;
            return DocShortcut.TAKEN;
          }
          for (int v = 0; v < counted.values.size(); v++) {
            long ord = counted.values.ord(v);
            if (verdict == BlockCondition.ALL || segment.mixedSure(ord)) {
              into[(int) ord] += counted.values.count(v);
              if (verdict != BlockCondition.ALL) {
                rows += counted.values.count(v); // one value per event on a mixed field
              }
            }
          }
          if (verdict == BlockCondition.ALL) {
            rows += events; // every event has the field
          }
          return DocShortcut.TAKEN;
        };
    return new EventVisitor.BlockShortcut() {
      @Override
      public int take(int doc, int events, long oldest, long newest) throws IOException {
        return perBlock.take(doc, events, oldest, newest);
      }

      @Override
      public boolean takeAll(int from, int to, long events) throws IOException {
        return takeWhole(reader, key, counted, events);
      }
    };
  }

  /**
   * Counts a whole segment from its {@link BlockTotals} (once, by the first slice that asks; the
   * other slices take theirs as counted): when the condition has at most one clause, every block
   * has the counts it needs (every event a value of the counted field; one value of the clause's
   * field), and no value present is a maybe. Not for timed counts (each block's bucket matters).
   */
  private boolean takeWhole(
      LeafReader reader, Object key, BlockCondition.FieldCounts values, long sliceEvents)
      throws IOException {
    java.util.List<String> fields = condition.fields();
    if (mode == TIMED || fields.size() > 1) {
      return false;
    }
    String clauseField = fields.isEmpty() ? null : fields.get(0);
    if (mode == VALUES && clauseField != null && !clauseField.equals(field)) {
      return false;
    }
    String totalled = mode == VALUES ? field : clauseField;
    BlockTotals totals = totalled == null ? null : BlockTotals.of(reader, totalled);
    if (totalled != null
        && (totals == null
            || !totals.everyBlock()
            || (clauseField != null && !totals.singleValued()))) {
      return false;
    }
    long[] whole = totals == null ? null : totals.byOrd().clone();
    long matching = totals == null ? 0 : totals.events();
    if (clauseField != null) {
      BlockCondition.Test test = condition.test(clauseField);
      org.apache.lucene.index.SortedSetDocValues dictionary =
          BlockValueCounts.open(reader, clauseField).dictionary();
      matching = 0;
      for (int ord = 0; ord < whole.length; ord++) {
        if (whole[ord] == 0) {
          continue;
        }
        byte verdict = test.of(EventFields.keywordTerm(dictionary.lookupOrd(ord).utf8ToString()));
        if (verdict == BlockCondition.MAYBE) {
          return false;
        }
        if (verdict == BlockCondition.NO) {
          whole[ord] = 0;
        }
        matching += whole[ord];
      }
    }
    control.read((int) Math.min(Integer.MAX_VALUE, sliceEvents));
    long counted = matching;
    if (mode == ROWS) {
      if (clauseField == null) {
        return false; // stats count over a whole bucket is counted before the scan
      }
      if (segmentCounts.firstToCount(key)) {
        rows += counted;
      }
      return true;
    }
    // the segment's rows go with its counts, once; this slice's own rows stay its blocks'

    segmentCounts.countWhole(key, values.values.dictionary(), counted, () -> whole);
    if (segmentCounts.firstToCount(key)) {
      wholeRows += counted;
    }
    return true;
  }

  /**
   * Counts a block mixed on one field by another, event by event: each of the {@code selected}
   * events in {@link #matching} (those whose value of the mixed field surely matches, from its
   * codes) adds one to its counted value's ordinal. The counted field's code and ordinal are read
   * only for those events (a filter keeps few of a block's events; the counted field may have a
   * value for each).
   */
  private void countEach(BlockCondition.FieldCounts counted, int selected, int[] into)
      throws IOException {
    for (int i = 0; i < selected; i++) {
      into[(int) counted.values.ord(counted.codeAt(matching[i]))]++;
    }
  }

  /** Room for a block's matching events. */
  private int[] matching(int events) {
    if (matching.length < events) {
      matching = new int[events];
    }
    return matching;
  }

  private int[] matching = new int[0];

  /** The largest dictionary counted per time bucket (an int per value and bucket). */
  private static final int MAX_TIMED_ORDINALS = IndexCounting.MAX_TIMED_ORDINALS;

  private static long sureEvents(BlockCondition.Segment segment) throws IOException {
    BlockCondition.FieldCounts mixed = segment.mixed();
    long sure = 0;
    for (int v = 0; v < mixed.values.size(); v++) {
      if (segment.mixedSure(mixed.values.ord(v))) {
        sure += mixed.values.count(v);
      }
    }
    return sure;
  }

  /** Events of whole segments counted with their counts ({@link #takeWhole}). */
  private long wholeRows;

  @Override
  public long rows() {
    return rows + wholeRows;
  }

  private BlockCondition.Segment lastSegment; // for its selects' counter
  private long wordSelects; // of the segments before it

  @Override
  public long finish() {
    if (lastSegment != null) {
      control.blocksByCodes(wordSelects + lastSegment.wordSelects(), 0);
      lastSegment = null;
      wordSelects = 0;
    }
    switch (mode) {
      case ROWS -> {
        if (rows > 0) {
          partial.addIntermediateInput(CountPages.rows(rows));
        }
      }
      case VALUES -> {
        if (counts != null) {
          segmentCounts.add(segmentKey, source.counts().values.dictionary(), counts, rows);
          counts = null;
        }
      }
      case TIMED -> {
        if (timed != null) {
          BlockCondition.FieldCounts values = source.counts();
          for (Map.Entry<Long, int[]> bucket : timed.entrySet()) {
            int[] byOrdinal = bucket.getValue();
            OrdinalCounts.Values counted =
                OrdinalCounts.values(
                    values.values.dictionary(), byOrdinal.length, ord -> byOrdinal[ord]);
            if (counted != null) {
              partial.addIntermediateInput(
                  CountPages.timed(field, bucket.getKey(), counted.values(), counted.counts()));
            }
          }
          timed = null;
        }
      }
    }
    return started == 0 ? 0 : System.nanoTime() - started;
  }
}
