package io.quarry.server.search;

import io.quarry.codecs.store.EventFields;
import io.quarry.codecs.store.EventRun;
import io.quarry.codecs.store.EventVisitor;
import io.quarry.codecs.store.StoredEvent;
import io.quarry.ql.engine.aggregation.CountPages;
import io.quarry.ql.engine.aggregation.CountShortcut;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.exec.StageStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.util.BytesRef;

/**
 * One segment slice of a batch search counted from the index ({@link BatchPlan.Engine#INDEX}): the
 * source that answers an aggregation {@link CountShortcut} accepts with counts instead of rows, and
 * hands the rest to the page source it wraps ({@code remainder}, {@link EventPages}). Per document
 * of the slice that surely matches (every candidate of an exact index query, else those the {@code
 * sure} query matches) and has keyword doc values for the counted field, it counts the document's
 * ordinals ({@link CountShortcut.Kind#VALUES}, into the segment's {@link OrdinalCounts}, looked up
 * once per segment at the end) or, per time bucket, its bucket's ({@link CountShortcut.Kind#TIMED})
 * or, with one ordinal of each of several by-fields, its combination ({@link
 * CountShortcut.Kind#GROUPS}, {@link JointCounts}); a whole segment whose every document matches is
 * counted from its term index's document frequencies, not a document read ({@link
 * #countsFromTerms}). Over blocks, {@link BlockCounting} (or {@link BlockGroupCounting}) counts the
 * blocks their value counts decide. The counts reach the partial aggregation as pages of
 * intermediate state ({@link CountPages}, {@link PageAggregator#addIntermediateInput}) when the
 * slice ends; every other event goes to the remainder, whose pages the same partial adds as input.
 */
final class IndexCounting implements EventVisitor {
  /** The largest keyword dictionary counted per time bucket (an int per value and bucket). */
  static final int MAX_TIMED_ORDINALS = 4_096;

  private final CountShortcut shortcut;
  private final Query sure;
  private final BlockCondition blocks;
  private final ZoneId zone;
  private final OrdinalCounts segmentCounts;
  private final PageAggregator partial;
  private final SearchControl control;
  private final AtomicLong matched;
  private final StageStats stages;
  private final int stage;
  private final EventVisitor remainder;

  private int taken; // documents counted, for the control's progress
  private long countedRows;
  private long handedRows; // of countedRows, those handed to segmentCounts with their values
  private long countedWhole; // documents counted with their whole segment
  private long started;
  private int[] ordinalCounts; // VALUES: this slice's counts by ordinal
  private SortedSetDocValues countedValues;
  private Object countedSegment;
  private Map<Long, int[]> timedCounts; // TIMED: per bucket start, by ordinal
  private JointCounts jointCounts; // GROUPS: this slice's counts by combination
  private BlockCountSource blockCounting;

  /**
   * Counts {@code shortcut} for the slice, into {@code partial} (timed counts and block row counts
   * when the slice ends) or {@code segmentCounts} (value counts, drained at the end of the scan);
   * {@code sure} is the part of an inexact index query that needs no per-event check (null: every
   * candidate matches); {@code blocks} decides blocks from their value counts (null: blocks are
   * read); time buckets in {@code zone}; the counted documents are stage {@code stage}'s input.
   */
  IndexCounting(
      CountShortcut shortcut,
      Query sure,
      BlockCondition blocks,
      ZoneId zone,
      OrdinalCounts segmentCounts,
      PageAggregator partial,
      SearchControl control,
      AtomicLong matched,
      StageStats stages,
      int stage,
      EventVisitor remainder) {
    this.shortcut = shortcut;
    this.sure = sure;
    this.blocks = blocks;
    this.zone = zone;
    this.segmentCounts = segmentCounts;
    this.partial = partial;
    this.control = control;
    this.matched = matched;
    this.stages = stages;
    this.stage = stage;
    this.remainder = remainder;
    if (blocks != null) {
      this.blockCounting =
          shortcut.kind() == CountShortcut.Kind.GROUPS
              ? new BlockGroupCounting(shortcut, blocks, control, partial)
              : new BlockCounting(shortcut, blocks, zone, control, partial, segmentCounts);
    }
  }

  @Override
  public boolean visit(StoredEvent event) {
    return remainder.visit(event);
  }

  /** The remainder's runs: the blocks this source counts are taken before any is read. */
  @Override
  public boolean takesRuns() {
    return remainder.takesRuns();
  }

  @Override
  public boolean visit(EventRun run) {
    return remainder.visit(run);
  }

  /** As the remainder: nothing here holds an event past its visit. */
  @Override
  public boolean keepsEvents() {
    return remainder.keepsEvents();
  }

  @Override
  public BlockShortcut blockShortcut(LeafReader reader) throws IOException {
    return blockCounting == null ? null : blockCounting.shortcut(reader);
  }

  @Override
  public DocShortcut shortcut(LeafReader reader) throws IOException {
    handOver(); // a slice lies in one segment; should another come, the last one's counts go first
    return switch (shortcut.kind()) {
      case ROWS -> null; // counted before the scan (CountingScan) or by blocks
      case VALUES -> valuesShortcut(reader);
      case TIMED -> timedShortcut(reader);
      case GROUPS -> groupsShortcut(reader);
    };
  }

  /**
   * {@code stats count by f1, f2 …}: a document that surely matches and has exactly one keyword
   * doc-values ordinal of every by-field is counted by its combination of ordinals ({@link
   * JointCounts}); any other (a by-field missing — its value may come from search-time extraction —
   * or multivalued) is read as a row.
   */
  private DocShortcut groupsShortcut(LeafReader reader) throws IOException {
    java.util.List<String> by = shortcut.by();
    SortedSetDocValues[] values = new SortedSetDocValues[by.size()];
    for (int f = 0; f < values.length; f++) {
      values[f] = OrdinalCounts.keywordValues(reader, by.get(f));
      if (values[f] == null) {
        return null;
      }
    }
    JointCounts counts = JointCounts.over(values, by, partial::addIntermediateInput);
    if (counts == null) {
      return null;
    }
    IntPredicate surely = sureMatches(reader);
    jointCounts = counts;
    started = System.nanoTime();
    long[] ords = new long[values.length];
    return doc -> {
      if (!surely.test(doc)) {
        return DocShortcut.VISIT;
      }
      for (int f = 0; f < values.length; f++) {
        if (!values[f].advanceExact(doc) || values[f].docValueCount() != 1) {
          return DocShortcut.VISIT;
        }
        ords[f] = values[f].nextOrd();
      }
      if (stopCounting()) {
        return DocShortcut.STOP;
      }
      counts.add(counts.key(ords), 1);
      countedRows++;
      return DocShortcut.TAKEN;
    };
  }

  private DocShortcut valuesShortcut(LeafReader reader) throws IOException {
    String field = shortcut.field();
    SortedSetDocValues values = OrdinalCounts.keywordValues(reader, field);
    if (values == null || values.getValueCount() > OrdinalCounts.MAX_COUNTED_ORDINALS) {
      return null;
    }
    IntPredicate surely = sureMatches(reader);
    countedValues = values;
    countedSegment = segmentKey(reader);
    ordinalCounts = new int[(int) values.getValueCount()];
    started = System.nanoTime();
    DocShortcut perDocument =
        doc -> {
          if (!surely.test(doc) || !values.advanceExact(doc)) {
            return DocShortcut.VISIT;
          }
          if (stopCounting()) {
            return DocShortcut.STOP;
          }
          countOrdinals(values, ordinalCounts);
          return DocShortcut.TAKEN;
        };
    return new DocShortcut() {
      @Override
      public int take(int doc) throws IOException {
        return perDocument.take(doc);
      }

      @Override
      public boolean takeAll(int from, int to) throws IOException {
        if (sure != null
            || !segmentCounts.countWhole(
                countedSegment, values, reader.maxDoc(), () -> countsFromTerms(reader, values))) {
          return false;
        }
        int documents = to - from;
        countedWhole += documents;
        control.read(documents);
        return true;
      }
    };
  }

  private DocShortcut timedShortcut(LeafReader reader) throws IOException {
    SortedSetDocValues values = OrdinalCounts.keywordValues(reader, shortcut.field());
    NumericDocValues times = reader.getNumericDocValues(EventFields.TIME);
    if (values == null || times == null || values.getValueCount() > MAX_TIMED_ORDINALS) {
      return null;
    }
    IntPredicate surely = sureMatches(reader);
    countedValues = values;
    timedCounts = new HashMap<>();
    started = System.nanoTime();
    int size = (int) values.getValueCount();
    long[] bucket = {Long.MAX_VALUE, Long.MIN_VALUE}; // the current bucket's [start, end)
    int[][] current = new int[1][];
    return doc -> {
      if (!surely.test(doc) || !values.advanceExact(doc) || !times.advanceExact(doc)) {
        return DocShortcut.VISIT;
      }
      if (stopCounting()) {
        return DocShortcut.STOP;
      }
      long time = times.longValue();
      if (time < bucket[0] || time >= bucket[1]) { // documents come in time order: rarely
        bucket[0] = shortcut.span().floor(time, zone);
        bucket[1] = shortcut.span().next(bucket[0], zone);
        current[0] = timedCounts.computeIfAbsent(bucket[0], start -> new int[size]);
      }
      countOrdinals(values, current[0]);
      return DocShortcut.TAKEN;
    };
  }

  /**
   * Counts a taken document towards the search's progress; true when the search is to stop (every
   * {@value SearchControl#EVERY} documents the control is asked).
   */
  private boolean stopCounting() {
    return ++taken % SearchControl.EVERY == 0 && control.readAndCheck(SearchControl.EVERY);
  }

  /** Counts the current document of {@code values} (positioned on it): each of its ordinals. */
  private void countOrdinals(SortedSetDocValues values, int[] counts) throws IOException {
    countedRows++;
    for (int i = 0; i < values.docValueCount(); i++) {
      counts[(int) values.nextOrd()]++;
    }
  }

  /** Whether a candidate surely matches: always without a sure query, else if it matches it. */
  private IntPredicate sureMatches(LeafReader reader) throws IOException {
    if (sure == null) {
      return doc -> true;
    }
    IndexSearcher searcher = new IndexSearcher(reader);
    searcher.setQueryCache(null);
    Scorer scorer =
        searcher
            .createWeight(searcher.rewrite(sure), ScoreMode.COMPLETE_NO_SCORES, 1f)
            .scorer(reader.getContext());
    if (scorer == null) {
      return doc -> false;
    }
    DocIdSetIterator docs = scorer.iterator();
    return doc -> {
      try {
        // candidates come in increasing order, so the iterator only moves forward
        return (docs.docID() < doc ? docs.advance(doc) : docs.docID()) == doc;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    };
  }

  /** The key a segment's slices share (its core's), so that its counts add up once. */
  static Object segmentKey(LeafReader reader) {
    return reader.getCoreCacheHelper() != null ? reader.getCoreCacheHelper().getKey() : reader;
  }

  @Override
  public void finish() {
    handOver();
    long counted = countedRows + countedWhole;
    long nanos = started == 0 ? 0 : System.nanoTime() - started;
    if (blockCounting != null) {
      nanos += blockCounting.finish();
      counted += blockCounting.rows();
      blockCounting = null;
    }
    if (counted > 0 || nanos > 0) {
      stages.counted(stage, counted, nanos);
    }
    control.read(taken % SearchControl.EVERY); // the remainder, for progress
    matched.addAndGet(counted);
    remainder.finish();
  }

  /**
   * Hands the current segment's counts on: timed counts to the partial as pages, value counts to
   * the segment's {@link OrdinalCounts}.
   */
  private void handOver() {
    if (jointCounts != null) {
      jointCounts.flush();
      jointCounts = null;
    }
    if (timedCounts != null) {
      for (Map.Entry<Long, int[]> bucket : timedCounts.entrySet()) {
        int[] byOrdinal = bucket.getValue();
        OrdinalCounts.Values values =
            OrdinalCounts.values(countedValues, byOrdinal.length, ord -> byOrdinal[ord]);
        if (values != null) {
          partial.addIntermediateInput(
              CountPages.timed(
                  shortcut.field(), bucket.getKey(), values.values(), values.counts()));
        }
      }
      timedCounts = null;
    }
    if (ordinalCounts != null) {
      segmentCounts.add(countedSegment, countedValues, ordinalCounts, countedRows - handedRows);
      handedRows = countedRows;
      ordinalCounts = null;
    }
  }

  @Override
  public void close() {
    remainder.close();
  }

  /**
   * A whole segment's counts by ordinal of a keyword field's doc values, from its term index
   * without reading a document: the value's lower-cased term's document frequency. Null when that
   * would not be exact: a document without the field (its value may come from search-time
   * extraction), two values with the same term (they differ in case only), a value too long for the
   * term index. The caller guarantees every document matches and none is deleted.
   */
  private long[] countsFromTerms(LeafReader reader, SortedSetDocValues values) throws IOException {
    Terms terms = reader.terms(EventFields.keywordField(shortcut.field()));
    if (terms == null || terms.getDocCount() != reader.maxDoc()) {
      return null;
    }
    TermsEnum keywords = terms.iterator();
    TermsEnum dictionary = values.termsEnum();
    long[] counts = new long[(int) values.getValueCount()];
    Set<String> seen = new java.util.HashSet<>();
    for (BytesRef value = dictionary.next(); value != null; value = dictionary.next()) {
      String keyword = EventFields.keywordTerm(value.utf8ToString());
      if (keyword == null || !seen.add(keyword) || !keywords.seekExact(new BytesRef(keyword))) {
        return null;
      }
      counts[(int) dictionary.ord()] = keywords.docFreq();
    }
    return counts;
  }
}
