package io.quarry.server.search;

import io.quarry.codecs.store.EventVisitor;
import io.quarry.codecs.store.StoredEvent;
import io.quarry.ql.exec.Aggregator;
import io.quarry.ql.exec.Row;
import io.quarry.ql.exec.RowSink;
import io.quarry.ql.exec.StageStats;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Feeds the events of a scan into a pipeline: stops at the control, applies the per-event check of
 * a superset index query, counts matches; finishes the pipeline at the end of the scan (of
 * everything in time-ordered mode, of a slice for a batch-mode map side). In batch mode it may
 * count instead of producing rows, for an aggregation that only counts ({@link #countValues},
 * {@link #countTimedValues}): documents taken by its {@link #shortcut} are never loaded.
 */
final class PipelineFeed implements EventVisitor {
  /** The largest keyword dictionary a slice counts by ordinal (an int each). */
  static final int MAX_COUNTED_ORDINALS = 1 << 21;

  private final Sourcetypes sourcetypes;
  private final SearchControl control;
  private final Predicate<Row> check;
  private final RowSink sink;
  private final AtomicLong matched;
  private final ExtractionClock extraction = new ExtractionClock();
  private Runnable afterFinish = () -> {};
  private boolean extract = true;
  private long matchedHere;
  private int visited;

  PipelineFeed(
      Sourcetypes sourcetypes,
      SearchControl control,
      Predicate<Row> check,
      RowSink sink,
      AtomicLong matched) {
    this.sourcetypes = sourcetypes;
    this.control = control;
    this.check = check;
    this.sink = sink;
    this.matched = matched;
  }

  @Override
  public boolean visit(StoredEvent stored) {
    if (++visited % SearchControl.EVERY == 0 && control.readAndCheck(SearchControl.EVERY)) {
      return false;
    }
    EventRow row = new EventRow(stored, sourcetypes, extraction, extract);
    if (!check.test(row)) {
      return true;
    }
    if (blockDedup != null) {
      blockDedup.visited(stored);
    }
    matchedHere++;
    return sink.accept(row);
  }

  /** The value counts of a {@link #countValues} slice, by ordinal. */
  private int[] ordinalCounts;

  private org.apache.lucene.index.SortedSetDocValues countedValues;
  private Object countedSegment;
  private OrdinalCounts segmentCounts;
  private long countedRows;
  private String countedField;
  private Aggregator countingPartial;
  private StageStats countingStages;
  private int countingStage;
  private long countingStarted;

  /**
   * Counts the values of {@code field} from its keyword doc values into {@code partial} instead of
   * producing rows (for an aggregation whose {@link Aggregator#countsOnlyByField} it is, with no
   * command before it): every candidate of an exact index query, or those {@code sure} matches
   * (null: every candidate); other events, and events without doc values for the field (their value
   * may come from search-time extraction), still become rows.
   */
  PipelineFeed countValues(
      String field,
      org.apache.lucene.search.Query sure,
      OrdinalCounts segments,
      Aggregator partial,
      StageStats stages,
      int stage) {
    this.segmentCounts = segments;
    this.countedField = field;
    this.sure = sure;
    this.countingPartial = partial;
    this.countingStages = stages;
    this.countingStage = stage;
    return this;
  }

  /** The field counted per time bucket ({@code timechart count by f}), or null. */
  private String timedField;

  /** Per time bucket start, the counts by ordinal of {@link #countedValues}. */
  private java.util.Map<Long, int[]> timedCounts;

  /** The largest keyword dictionary counted per time bucket (an int per value and bucket). */
  private static final int MAX_TIMED_ORDINALS = 4_096;

  /**
   * Counts the values of {@code field} per time bucket of the aggregation instead of producing rows
   * ({@link Aggregator#countsByTimeAndField}); as {@link #countValues}, events without doc values
   * for it still become rows.
   */
  PipelineFeed countTimedValues(String field) {
    this.timedField = field;
    return this;
  }

  /**
   * The keyword doc values of an index-time field in this segment, or null when there are none or
   * the field has another type here too (then rows sort it out).
   */
  static org.apache.lucene.index.SortedSetDocValues keywordValues(
      org.apache.lucene.index.LeafReader reader, String field) throws IOException {
    org.apache.lucene.index.FieldInfos infos = reader.getFieldInfos();
    for (io.quarry.codecs.store.IndexedFieldType type :
        io.quarry.codecs.store.IndexedFieldType.values()) {
      if (type != io.quarry.codecs.store.IndexedFieldType.KEYWORD
          && infos.fieldInfo(io.quarry.codecs.store.EventFields.valuesField(field, type)) != null) {
        return null;
      }
    }
    String name =
        io.quarry.codecs.store.EventFields.valuesField(
            field, io.quarry.codecs.store.IndexedFieldType.KEYWORD);
    org.apache.lucene.index.FieldInfo info = infos.fieldInfo(name);
    if (info == null
        || info.getDocValuesType() != org.apache.lucene.index.DocValuesType.SORTED_SET) {
      return null;
    }
    return reader.getSortedSetDocValues(name);
  }

  /** The time-bucketed counting shortcut of {@link #countTimedValues}, or null. */
  private DocShortcut timedShortcut(org.apache.lucene.index.LeafReader reader) throws IOException {
    org.apache.lucene.index.SortedSetDocValues values = keywordValues(reader, timedField);
    org.apache.lucene.index.NumericDocValues times =
        reader.getNumericDocValues(io.quarry.codecs.store.EventFields.TIME);
    if (values == null || times == null || values.getValueCount() > MAX_TIMED_ORDINALS) {
      return null;
    }
    java.util.function.IntPredicate surely = sureMatches(reader);
    countedValues = values;
    timedCounts = new java.util.HashMap<>();
    countingStarted = System.nanoTime();
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
        bucket[0] = countingPartial.timeBucket(time);
        bucket[1] = countingPartial.nextTimeBucket(bucket[0]);
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
    return ++visited % SearchControl.EVERY == 0 && control.readAndCheck(SearchControl.EVERY);
  }

  /** Counts the current document of {@code values} (positioned on it): each of its ordinals. */
  private void countOrdinals(org.apache.lucene.index.SortedSetDocValues values, int[] counts)
      throws IOException {
    matchedHere++;
    countedRows++;
    for (int i = 0; i < values.docValueCount(); i++) {
      counts[(int) values.nextOrd()]++;
    }
  }

  /** Hands the time-bucketed counts to the partial, by value. */
  private void finishTimedCounts() {
    for (java.util.Map.Entry<Long, int[]> bucket : timedCounts.entrySet()) {
      int[] byOrdinal = bucket.getValue();
      countingPartial.addTimeValueCounts(
          bucket.getKey(),
          OrdinalCounts.byValue(countedValues, byOrdinal.length, ord -> byOrdinal[ord]));
    }
    countingStages.counted(countingStage, countedRows, System.nanoTime() - countingStarted);
    timedCounts = null;
  }

  /**
   * The documents that surely match when the index query is a superset (they may be counted; the
   * others are checked as rows), or null when every candidate matches.
   */
  private org.apache.lucene.search.Query sure;

  /** Whether a candidate surely matches: always without a sure query, else if it matches it. */
  private java.util.function.IntPredicate sureMatches(org.apache.lucene.index.LeafReader reader)
      throws IOException {
    if (sure == null) {
      return doc -> true;
    }
    org.apache.lucene.search.IndexSearcher searcher =
        new org.apache.lucene.search.IndexSearcher(reader);
    searcher.setQueryCache(null);
    org.apache.lucene.search.Scorer scorer =
        searcher
            .createWeight(
                searcher.rewrite(sure), org.apache.lucene.search.ScoreMode.COMPLETE_NO_SCORES, 1f)
            .scorer(reader.getContext());
    if (scorer == null) {
      return doc -> false;
    }
    org.apache.lucene.search.DocIdSetIterator docs = scorer.iterator();
    return doc -> {
      try {
        // candidates come in increasing order, so the iterator only moves forward
        return (docs.docID() < doc ? docs.advance(doc) : docs.docID()) == doc;
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    };
  }

  /** The skip of a leading {@code dedup}'s repeated values, or null. */
  private SeenValuesSkip dedupSkip;

  /**
   * Skips events a leading {@code dedup field} would drop ({@link SeenValuesSkip}); they are
   * counted as stage {@code stage}'s input all the same.
   */
  PipelineFeed skipSeenValues(String field, StageStats stages, int stage) {
    this.dedupSkip = new SeenValuesSkip(field, control);
    this.countingStages = stages;
    this.countingStage = stage;
    return this;
  }

  /** The block layout's counting of this slice ({@link #countBlocks}), or null. */
  private BlockCounting blockCounting;

  /**
   * Counts, as {@link #countValues} and {@link #countTimedValues} set up (or the matching events
   * alone, for {@code stats count}, when neither is), the blocks that lie wholly in range and that
   * {@code condition} decides from their value counts instead of reading them ({@link
   * BlockCounting}); call after those. Null: blocks are read.
   */
  PipelineFeed countBlocks(BlockCondition condition) {
    if (condition != null) {
      BlockCounting.Mode mode =
          timedField != null
              ? BlockCounting.Mode.TIMED
              : countedField != null ? BlockCounting.Mode.VALUES : BlockCounting.Mode.ROWS;
      String field = timedField != null ? timedField : countedField;
      blockCounting =
          new BlockCounting(mode, field, condition, control, countingPartial, segmentCounts);
    }
    return this;
  }

  /** The {@code dedup} skip over blocks ({@link #skipSeenValues}), once a block segment came. */
  private BlockDedup blockDedup;

  @Override
  public BlockShortcut blockShortcut(org.apache.lucene.index.LeafReader reader) throws IOException {
    if (dedupSkip != null) {
      if (blockDedup == null) {
        blockDedup = new BlockDedup(dedupSkip.field(), dedupSkip.seen(), control);
      }
      return blockDedup.shortcut(reader);
    }
    return blockCounting == null ? null : blockCounting.shortcut(reader);
  }

  @Override
  public DocShortcut shortcut(org.apache.lucene.index.LeafReader reader) throws IOException {
    if (dedupSkip != null) {
      return dedupSkip.shortcut(reader);
    }
    if (timedField != null) {
      return timedShortcut(reader);
    }
    if (countedField == null) {
      return null;
    }
    org.apache.lucene.index.SortedSetDocValues values = keywordValues(reader, countedField);
    if (values == null || values.getValueCount() > MAX_COUNTED_ORDINALS) {
      return null;
    }
    java.util.function.IntPredicate surely = sureMatches(reader);
    countedValues = values;
    countedSegment =
        reader.getCoreCacheHelper() != null ? reader.getCoreCacheHelper().getKey() : reader;
    ordinalCounts = new int[(int) values.getValueCount()];
    countingStarted = System.nanoTime();
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
                countedSegment,
                values,
                reader.maxDoc(),
                () -> countsFromTerms(reader, values, countedField))) {
          return false;
        }
        int documents = to - from;
        matchedHere += documents;
        countedWhole += documents;
        control.read(documents);
        return true;
      }
    };
  }

  /** Documents of this slice counted with their whole segment ({@link #countsFromTerms}). */
  private long countedWhole;

  @Override
  public void finish() {
    if (timedCounts != null) {
      finishTimedCounts();
    }
    if (ordinalCounts != null) {
      segmentCounts.add(countedSegment, countedValues, ordinalCounts, countedRows);
      countingStages.counted(
          countingStage, countedRows + countedWhole, System.nanoTime() - countingStarted);
      ordinalCounts = null;
    }
    if (dedupSkip != null) {
      long blocksSkipped = blockDedup == null ? 0 : blockDedup.skipped();
      countingStages.counted(countingStage, dedupSkip.skipped() + blocksSkipped, 0);
      matchedHere += dedupSkip.skipped() + blocksSkipped;
      dedupSkip.reportRead();
    }
    if (blockCounting != null) {
      long nanos = blockCounting.finish();
      matchedHere += blockCounting.rows();
      countingStages.counted(countingStage, blockCounting.rows(), nanos);
      blockCounting = null;
    }
    control.read(visited % SearchControl.EVERY); // the remainder, for progress
    matched.addAndGet(matchedHere);
    sink.finish(); // buffered rows read their fields while the segments are open
    control.extracted(extraction.take());
    afterFinish.run();
  }

  /**
   * Whether events' search-time fields are extracted (the default); with {@code only}, rows hold
   * only default and index-time fields ({@code tstats}).
   */
  PipelineFeed indexedFieldsOnly(boolean only) {
    this.extract = !only;
    return this;
  }

  /** Runs {@code action} on the scan's thread once this feed has finished. */
  PipelineFeed then(Runnable action) {
    this.afterFinish = action;
    return this;
  }

  /**
   * A whole segment's counts by ordinal of a keyword field's doc values, from its term index
   * without reading a document: the value's lower-cased term's document frequency. Null when that
   * would not be exact: a document without the field (its value may come from search-time
   * extraction), two values with the same term (they differ in case only), a value too long for the
   * term index. The caller guarantees every document matches and none is deleted.
   */
  private static long[] countsFromTerms(
      org.apache.lucene.index.LeafReader reader,
      org.apache.lucene.index.SortedSetDocValues values,
      String field)
      throws IOException {
    org.apache.lucene.index.Terms terms =
        reader.terms(io.quarry.codecs.store.EventFields.keywordField(field));
    if (terms == null || terms.getDocCount() != reader.maxDoc()) {
      return null;
    }
    org.apache.lucene.index.TermsEnum keywords = terms.iterator();
    org.apache.lucene.index.TermsEnum dictionary = values.termsEnum();
    long[] counts = new long[(int) values.getValueCount()];
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (org.apache.lucene.util.BytesRef value = dictionary.next();
        value != null;
        value = dictionary.next()) {
      String keyword = io.quarry.codecs.store.EventFields.keywordTerm(value.utf8ToString());
      if (keyword == null
          || !seen.add(keyword)
          || !keywords.seekExact(new org.apache.lucene.util.BytesRef(keyword))) {
        return null;
      }
      counts[(int) dictionary.ord()] = keywords.docFreq();
    }
    return counts;
  }
}
