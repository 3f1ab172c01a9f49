package io.quarry.server.search;

import io.quarry.codecs.store.BlockValueCodes;
import io.quarry.codecs.store.CodePairCounts;
import io.quarry.codecs.store.EventVisitor;
import io.quarry.codecs.store.EventVisitor.DocShortcut;
import io.quarry.ql.engine.aggregation.CountShortcut;
import io.quarry.ql.engine.aggregation.PageAggregator;
import java.io.IOException;
import java.util.List;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.SortedSetDocValues;

/**
 * The block layout's {@code stats count by f1, f2 …} for one slice of a batch scan ({@link
 * CountShortcut.Kind#GROUPS}): a block wholly in the search's range that {@link BlockCondition}
 * decides, and in which every event has exactly one value of every by-field (each field's {@link
 * io.quarry.codecs.store.BlockValueCounts} add up to the block's events), is counted from the
 * fields' per-event value codes ({@link io.quarry.codecs.store.BlockValueCodes}; a block of one
 * value has none: every code is 0), never decoded: the events' joint codes counted in an array per
 * block, each combination then turned into the fields' segment ordinals once and added to the
 * slice's {@link JointCounts}. A block mixed on one filter field counts only the events its codes
 * select. Any other block — some event lacking a by-field or holding several values, no codes, a
 * maybe — is visited event by event, as before; so is every block of a segment without the fields'
 * counts.
 */
final class BlockGroupCounting implements BlockCountSource {
  /** The most joint codes of one block counted in an array; more are counted event by event. */
  private static final int MAX_BLOCK_COMBINATIONS = 1 << 14;

  private final List<String> by;
  private final BlockCondition condition;
  private final SearchControl control;
  private final PageAggregator partial;

  private JointCounts joint; // the current segment's
  private long rows;
  private long started;
  private int[][] codes = new int[0][];
  private int[] combined = new int[0];
  private int[] matching = new int[0];
  private final CodePairCounts pairs = new CodePairCounts();

  BlockGroupCounting(
      CountShortcut shortcut,
      BlockCondition condition,
      SearchControl control,
      PageAggregator partial) {
    this.by = shortcut.by();
    this.condition = condition;
    this.control = control;
    this.partial = partial;
  }

  @Override
  public EventVisitor.BlockShortcut shortcut(LeafReader reader) throws IOException {
    handOver(); // a slice lies in one segment; should another come, the last one's counts go first
    BlockCondition.Segment segment = condition.segment(reader);
    if (lastSegment != null) {
      wordSelects += lastSegment.wordSelects();
    }
    lastSegment = segment;
    int n = by.size();
    BlockCondition.FieldCounts[] fields = new BlockCondition.FieldCounts[n];
    SortedSetDocValues[] dictionaries = new SortedSetDocValues[n];
    for (int f = 0; f < n; f++) {
      fields[f] = segment.counts(by.get(f));
      if (fields[f] == null) {
        return null;
      }
      dictionaries[f] = fields[f].values.dictionary();
    }
    JointCounts counts = JointCounts.over(dictionaries, by, partial::addIntermediateInput);
    if (counts == null) {
      return null;
    }
    joint = counts;
    if (codes.length < n) {
      codes = new int[n][0];
    }
    if (started == 0) {
      started = System.nanoTime();
    }
    return (doc, events, oldest, newest) -> {
      int verdict = segment.evaluate(doc, events);
      if (verdict == BlockCondition.READ) {
        return DocShortcut.VISIT;
      }
      if (verdict != BlockCondition.NONE) {
        for (BlockCondition.FieldCounts field : fields) {
          if (!field.at(doc) || field.values.total() != events || !field.coded(doc, events)) {
            return DocShortcut.VISIT; // an event without one value of it: read as a row
          }
        }
      }
      int selected = events;
      if (verdict >= 0) { // mixed on one field: the events its sure values select
        selected = segment.mixed().select(doc, events, segment.mixedSureCodes(), room(events));
        if (selected < 0) {
          return DocShortcut.VISIT;
        }
      }
      if (control.readAndCheck(events)) {
        return DocShortcut.STOP;
      }
      if (verdict == BlockCondition.NONE || selected == 0) {
        return DocShortcut.TAKEN;
      }
      if (verdict == BlockCondition.ALL) {
        countAll(fields, doc, events);
      } else {
        countSelected(fields, selected);
      }
      rows += selected;
      return DocShortcut.TAKEN;
    };
  }

  /** Counts every event of block {@code doc} by its joint code, then each combination once. */
  private void countAll(BlockCondition.FieldCounts[] fields, int doc, int events)
      throws IOException {
    int n = fields.length;
    if (n == 2 && countPairs(fields, events)) {
      return;
    }
    long combinations = 1;
    for (int f = 0; f < n; f++) {
      if (codes[f].length < events) {
        codes[f] = new int[events];
      }
      fields[f].codes(doc, events, codes[f]);
      combinations *= fields[f].values.size();
    }
    long[] ords = new long[n];
    if (combinations > MAX_BLOCK_COMBINATIONS) {
      for (int e = 0; e < events; e++) {
        for (int f = 0; f < n; f++) {
          ords[f] = fields[f].values.ord(codes[f][e]);
        }
        joint.add(joint.key(ords), 1);
      }
      return;
    }
    if (combined.length < combinations) {
      combined = new int[(int) combinations];
    }
    int[] first = codes[0];
    if (n == 2) { // the common shape: one pass, no loop over the fields
      int[] second = codes[1];
      int size = fields[1].values.size();
      for (int e = 0; e < events; e++) {
        combined[first[e] * size + second[e]]++;
      }
    } else {
      for (int e = 0; e < events; e++) {
        int code = 0;
        for (int f = 0; f < n; f++) {
          code = code * fields[f].values.size() + codes[f][e];
        }
        combined[code]++;
      }
    }
    for (int code = 0; code < combinations; code++) {
      int count = combined[code];
      if (count == 0) {
        continue;
      }
      combined[code] = 0;
      int rest = code;
      for (int f = n - 1; f >= 0; f--) {
        int size = fields[f].values.size();
        ords[f] = fields[f].values.ord(rest % size);
        rest /= size;
      }
      joint.add(joint.key(ords), count);
    }
  }

  /**
   * Counts every event of the block both fields {@link BlockCondition.FieldCounts#coded moved to}
   * by its pair of codes straight from their packed bytes ({@link CodePairCounts}); false, nothing
   * counted, when a field has one value or the codes are too wide (count the decoded codes).
   */
  private boolean countPairs(BlockCondition.FieldCounts[] fields, int events) throws IOException {
    BlockValueCodes first = fields[0].packed();
    BlockValueCodes second = fields[1].packed();
    if (first == null || second == null) {
      return false;
    }
    int size1 = fields[0].values.size();
    int size2 = fields[1].values.size();
    if (combined.length < size1 * size2) {
      combined = new int[size1 * size2];
    }
    if (!pairs.count(first, second, events, combined)) {
      return false;
    }
    pairBlocks++;
    long[] ords = new long[2];
    for (int code1 = 0; code1 < size1; code1++) {
      for (int code2 = 0; code2 < size2; code2++) {
        int code = code1 * size2 + code2;
        int count = combined[code];
        if (count != 0) {
          combined[code] = 0;
          ords[0] = fields[0].values.ord(code1);
          ords[1] = fields[1].values.ord(code2);
          joint.add(joint.key(ords), count);
        }
      }
    }
    return true;
  }

  /** Counts the {@code selected} events in {@link #matching}, each by its codes. */
  private void countSelected(BlockCondition.FieldCounts[] fields, int selected) throws IOException {
    long[] ords = new long[fields.length];
    for (int i = 0; i < selected; i++) {
      int e = matching[i];
      for (int f = 0; f < fields.length; f++) {
        ords[f] = fields[f].values.ord(fields[f].codeAt(e));
      }
      joint.add(joint.key(ords), 1);
    }
  }

  private int[] room(int events) {
    if (matching.length < events) {
      matching = new int[events];
    }
    return matching;
  }

  /** Hands the current segment's counts to the aggregation. */
  private void handOver() {
    if (joint != null) {
      joint.flush();
      joint = null;
    }
  }

  @Override
  public long rows() {
    return rows;
  }

  private BlockCondition.Segment lastSegment; // for its selects' counter
  private long wordSelects; // of the segments before it
  private long pairBlocks; // blocks counted by CodePairCounts

  @Override
  public long finish() {
    handOver();
    control.blocksByCodes(
        wordSelects + (lastSegment == null ? 0 : lastSegment.wordSelects()), pairBlocks);
    lastSegment = null;
    wordSelects = 0;
    pairBlocks = 0;
    return started == 0 ? 0 : System.nanoTime() - started;
  }
}
