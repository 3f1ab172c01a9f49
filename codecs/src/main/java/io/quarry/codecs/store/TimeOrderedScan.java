package io.quarry.codecs.store;

import io.quarry.codecs.journal.Utf8FieldVisitor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.StoredFieldVisitor;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.IndexSortSortedNumericDocValuesRangeQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;

/**
 * Merges the matching documents of many segments into one newest-first stream. Every segment is
 * sorted by time, newest first, so each segment's iterator is already in order and a priority queue
 * of their heads yields the global order lazily: a {@code head 10} reads about ten events.
 */
final class TimeOrderedScan {
  /** One bucket's searcher to scan, with the index and bucket it belongs to. */
  record Source(String index, IndexStore store, Bucket bucket, IndexSearcher searcher) {}

  private final List<Source> sources;
  private final Query query;
  private final long earliest;
  private final long latest;

  TimeOrderedScan(List<Source> sources, Query query, long earliestMicros, long latestMicros) {
    this.sources = sources;
    this.query = query;
    this.earliest = earliestMicros;
    this.latest = latestMicros;
  }

  ScanStats run(EventVisitor visitor) throws IOException {
    try {
      return scan(visitor);
    } finally {
      visitor.close();
    }
  }

  private ScanStats scan(EventVisitor visitor) throws IOException {
    if (earliest >= latest) {
      visitor.finish();
      return new ScanStats(0, sources.size(), 0, 0, 0, 0, ScanStats.Costs.NONE, List.of());
    }
    long[] journalBefore = io.quarry.codecs.journal.JournalReads.read();
    long lookupStarted = System.nanoTime();
    PriorityQueue<Cursor> queue = new PriorityQueue<>((a, b) -> Long.compare(b.time, a.time));
    int segments = 0;
    int segmentsSkipped = 0;
    List<String> warnings = new ArrayList<>();
    for (Source source : sources) {
      IndexSearcher searcher = source.searcher();
      boolean blocks = source.bucket().format() == BucketFormat.BLOCKS;
      Query sourceQuery =
          blocks
              ? BlockQueries.forSource(query, source, earliest, latest)
              : withTimeRange(query, source, earliest, latest);
      Weight weight =
          searcher.createWeight(searcher.rewrite(sourceQuery), ScoreMode.COMPLETE_NO_SCORES, 1f);
      for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
        segments++;
        if (damaged.contains(source.bucket())) {
          segmentsSkipped++; // quarantined while its first segments were opened
          continue;
        }
        Scorer scorer = weight.scorer(leaf);
        Cursor cursor =
            scorer == null
                ? null
                : blocks
                    ? new BlockCursor(
                        source,
                        leaf,
                        scorer.iterator(),
                        earliest,
                        latest,
                        visitor.blockShortcut(leaf.reader()))
                    : new DocCursor(
                        source, leaf, scorer.iterator(), visitor.shortcut(leaf.reader()));
        if (cursor != null && advance(cursor, queue, warnings)) {
          queue.add(cursor);
        } else {
          segmentsSkipped++;
        }
      }
    }
    long lookupNanos = System.nanoTime() - lookupStarted;
    long read = 0;
    while (!queue.isEmpty() && !stopped) {
      Cursor cursor = queue.poll();
      EventVisitor.DocShortcut shortcut = cursor.shortcut();
      if (shortcut != null) { // the visitor may handle the document without its event
        int taken = shortcut.take(cursor.docID());
        if (taken == EventVisitor.DocShortcut.STOP) {
          break;
        }
        if (taken == EventVisitor.DocShortcut.TAKEN) {
          read++;
          if (advance(cursor, queue, warnings)) {
            queue.add(cursor);
          }
          continue;
        }
      }
      boolean more;
      try {
        StoredEvent event = cursor.load();
        read++;
        more = visitor.visit(event);
      } catch (CorruptIndexException | UncheckedCorruption e) {
        // a damaged journal block: drop this bucket from the scan and from the index
        warnings.add(cursor.source.store().quarantine(cursor.source.bucket(), corruption(e)));
        queue.removeIf(other -> other.source.bucket() == cursor.source.bucket());
        continue;
      }
      if (!more) {
        break;
      }
      if (advance(cursor, queue, warnings)) {
        queue.add(cursor);
      }
    }
    try {
      visitor.finish();
    } catch (UncheckedCorruption e) {
      warnings.add("a damaged journal block was met while finishing the search: " + e.getMessage());
    }
    return new ScanStats(
        0,
        sources.size(),
        0,
        segments,
        segmentsSkipped,
        read + taken,
        ScanStats.Costs.indexLookup(lookupNanos).plus(ScanStats.Costs.journalSince(journalBefore)),
        warnings);
  }

  /**
   * {@code query} over one source, restricted to {@code [earliest, latest)} unless every event of
   * its bucket lies inside (a bucket's bounds only widen as events arrive, so they hold for any
   * earlier searcher): then the query stays as it is, and Lucene counts it from the term index and
   * a scan of every document takes its shortcuts (a range over all time is still a range query).
   */
  static Query withTimeRange(Query query, Source source, long earliest, long latest) {
    Bucket bucket = source.bucket();
    if (bucket.minTime() >= earliest && bucket.maxTime() < latest) {
      return query;
    }
    return withTimeRange(query, earliest, latest);
  }

  /** {@code query} restricted to {@code [earliest, latest)}, through the index sort. */
  static Query withTimeRange(Query query, long earliest, long latest) {
    if (earliest == Long.MIN_VALUE && latest == Long.MAX_VALUE) {
      return query;
    }
    long upper = latest - 1;
    Query range =
        new IndexSortSortedNumericDocValuesRangeQuery(
            EventFields.TIME,
            earliest,
            upper,
            LongPoint.newRangeQuery(EventFields.TIME, earliest, upper));
    return new BooleanQuery.Builder()
        .add(query, BooleanClause.Occur.FILTER)
        .add(range, BooleanClause.Occur.FILTER)
        .build();
  }

  /**
   * Moves a cursor to its next event; false when it has none, or when its bucket turned out damaged
   * (then the bucket is quarantined and its other cursors leave the queue).
   */
  private boolean advance(Cursor cursor, PriorityQueue<Cursor> queue, List<String> warnings)
      throws IOException {
    try {
      boolean more = cursor.advance();
      taken += cursor.taken;
      cursor.taken = 0;
      stopped |= cursor.stopped;
      return more;
    } catch (CorruptIndexException | UncheckedCorruption e) {
      if (damaged.add(cursor.source.bucket())) {
        warnings.add(cursor.source.store().quarantine(cursor.source.bucket(), corruption(e)));
      }
      queue.removeIf(other -> other.source.bucket() == cursor.source.bucket());
      return false;
    }
  }

  /** Events a visitor's block shortcut took whole (read without being visited). */
  private long taken;

  /** Whether a block shortcut stopped the scan. */
  private boolean stopped;

  /** Buckets found damaged during this scan (quarantined once, their cursors dropped). */
  private final java.util.Set<Bucket> damaged = new java.util.HashSet<>();

  /** The next event of one segment's matches, newest first: its time, and the event itself. */
  abstract static class Cursor {
    final Source source;
    long time;

    /** Events of blocks the visitor took since the last {@link #advance}; whether it said stop. */
    long taken;

    boolean stopped;

    Cursor(Source source) {
      this.source = source;
    }

    /** Moves to the next event and sets {@link #time}; false when there is none. */
    abstract boolean advance() throws IOException;

    /** The current event. */
    abstract StoredEvent load() throws IOException;

    /** The visitor's shortcut for this segment's documents, or null. */
    EventVisitor.DocShortcut shortcut() {
      return null;
    }

    /** The current document (for the shortcut). */
    int docID() {
      throw new UnsupportedOperationException("no documents of their own");
    }
  }

  /** One document per event: the segment's matches in doc-id order are newest first. */
  private static final class DocCursor extends Cursor {
    private final DocIdSetIterator iterator;
    private final EventLoader loader;
    private final EventVisitor.DocShortcut shortcut; // null: every document is visited

    DocCursor(
        Source source,
        LeafReaderContext leaf,
        DocIdSetIterator iterator,
        EventVisitor.DocShortcut shortcut)
        throws IOException {
      super(source);
      this.iterator = iterator;
      this.loader = new EventLoader(source.index(), leaf);
      this.shortcut = shortcut;
    }

    @Override
    boolean advance() throws IOException {
      int doc = iterator.nextDoc();
      if (doc == DocIdSetIterator.NO_MORE_DOCS) {
        return false;
      }
      time = loader.time(doc);
      return true;
    }

    @Override
    StoredEvent load() throws IOException {
      return loader.load(iterator.docID());
    }

    @Override
    EventVisitor.DocShortcut shortcut() {
      return shortcut;
    }

    @Override
    int docID() {
      return iterator.docID();
    }
  }

  /**
   * Reads events of one segment in increasing doc-id order: doc values at once, {@code _raw} from
   * the journal when asked for.
   */
  static final class EventLoader implements StoredEvent.Loader {
    private final String index;
    private final NumericDocValues times;
    private final StoredFields storedFields;
    private final EventColumns columns;
    private final RawView rawView = new RawView();
    private int timeDoc = -1; // the document time() last read, and its time
    private long time;

    EventLoader(String index, LeafReaderContext leaf) throws IOException {
      this.index = index;
      this.times = leaf.reader().getNumericDocValues(EventFields.TIME);
      this.storedFields = leaf.reader().storedFields();
      this.columns = new EventColumns(leaf.reader());
    }

    long time(int doc) throws IOException {
      timeDoc = doc;
      time = times != null && times.advanceExact(doc) ? times.longValue() : Long.MIN_VALUE;
      return time;
    }

    /** Loads {@code doc}; call {@link #time} for it first (doc values move forward only). */
    StoredEvent load(int doc) throws IOException {
      long time = doc == timeDoc ? this.time : Long.MIN_VALUE;
      if (columns.legacy()) {
        EventReader reader = new EventReader(true);
        reader.time = time;
        storedFields.document(doc, reader);
        return new StoredEvent(index, reader.toEvent());
      }
      return new StoredEvent(index, time, this, doc);
    }

    @Override
    public String defaultField(int doc, String name) {
      try {
        return columns.defaultField(doc, name);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    @Override
    public List<String> fieldNames() {
      return columns.indexedFieldNames();
    }

    @Override
    public boolean hasField(String name) {
      return columns.hasIndexedField(name);
    }

    @Override
    public List<String> field(int doc, String name) throws IOException {
      return columns.indexedField(doc, name);
    }

    @Override
    public long keywordOrdinal(int doc, String name) throws IOException {
      return columns.keywordOrdinal(doc, name);
    }

    @Override
    public Object keywordScope() {
      return columns;
    }

    @Override
    public String keywordText(String name, long ordinal) throws IOException {
      return columns.keywordText(name, ordinal);
    }

    @Override
    public String raw(int doc) throws IOException {
      EventReader text = new EventReader(false);
      try {
        storedFields.document(doc, text);
      } catch (CorruptIndexException e) {
        throw new UncheckedCorruption(e);
      }
      return text.raw;
    }

    @Override
    public CharSequence rawView(int doc) throws IOException {
      return rawView.read(storedFields, doc);
    }
  }

  /**
   * Reads one document's {@code _raw} as {@link AsciiText} over the journal's decoded block, when
   * the event is ASCII (each byte one character, as regexes index it); one per loader, reused.
   */
  static final class RawView extends StoredFieldVisitor implements Utf8FieldVisitor {
    private final AsciiText text = new AsciiText();
    private boolean found;

    /** The view, or null when the event is not ASCII or the journal gave a {@code String}. */
    CharSequence read(StoredFields journal, int doc) throws IOException {
      found = false;
      try {
        journal.document(doc, this);
      } catch (CorruptIndexException e) {
        throw new UncheckedCorruption(e);
      }
      return found ? text : null;
    }

    @Override
    public Status needsField(FieldInfo fieldInfo) {
      if (found) {
        return Status.STOP;
      }
      return fieldInfo.name.equals(EventFields.RAW) ? Status.YES : Status.NO;
    }

    @Override
    public void utf8Field(
        FieldInfo fieldInfo, byte[] bytes, int offset, int length, boolean ascii) {
      if (ascii || AsciiText.isAscii(bytes, offset, length)) {
        text.reset(bytes, offset, length);
        found = true;
      }
    }
  }

  /** A damaged journal block met while a visitor read {@code _raw}. */
  static final class UncheckedCorruption extends java.io.UncheckedIOException {
    UncheckedCorruption(CorruptIndexException cause) {
      super(cause);
    }
  }

  static CorruptIndexException corruption(Exception e) {
    return e instanceof UncheckedCorruption unchecked
        ? (CorruptIndexException) unchecked.getCause()
        : (CorruptIndexException) e;
  }

  /**
   * Collects the stored fields of one event document: {@code _raw}, and in buckets written before
   * doc values held them, the default and index-time fields.
   */
  static final class EventReader extends StoredFieldVisitor {
    /** Whether every stored field is wanted (old layout), or only {@code _raw}. */
    private final boolean allFields;

    long time;
    String raw = "";
    String host = "";
    String source = "";
    String sourcetype = "";
    final Map<String, List<String>> indexedFields = new HashMap<>();

    EventReader(boolean allFields) {
      this.allFields = allFields;
    }

    @Override
    public Status needsField(FieldInfo fieldInfo) {
      if (fieldInfo.name.equals(EventFields.RAW)) {
        return Status.YES;
      }
      // _time is read from doc values; older buckets also stored it
      return allFields && !fieldInfo.name.equals(EventFields.TIME) ? Status.YES : Status.NO;
    }

    @Override
    public void stringField(FieldInfo fieldInfo, String value) {
      String name = fieldInfo.name;
      switch (name) {
        case EventFields.RAW -> raw = value;
        case EventFields.HOST -> host = value;
        case EventFields.SOURCE -> source = value;
        case EventFields.SOURCETYPE -> sourcetype = value;
        default -> {
          if (name.startsWith(EventFields.INDEXED_FIELD_PREFIX)) {
            indexedFields
                .computeIfAbsent(
                    name.substring(EventFields.INDEXED_FIELD_PREFIX.length()),
                    k -> new ArrayList<>())
                .add(value);
          }
        }
      }
    }

    Event toEvent() {
      return new Event(time, raw, host, source, sourcetype, indexedFields);
    }
  }
}
