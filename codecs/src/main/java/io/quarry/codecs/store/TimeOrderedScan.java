package io.quarry.codecs.store;

import io.quarry.codecs.journal.Utf8FieldVisitor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

/**
 * The parts of the time-ordered scan ({@link TimeOrderedCursor}): the sources it reads, the time
 * range as a query, one segment's cursor over its matches newest first ({@link Cursor}: documents
 * here, blocks in {@link BlockCursor}), and the loader of a segment's events, which the parallel
 * scan's slices ({@link SliceCursor}) share.
 */
final class TimeOrderedScan {
  /** One bucket's searcher to scan, with the index and bucket it belongs to. */
  record Source(String index, IndexStore store, Bucket bucket, IndexSearcher searcher) {}

  private TimeOrderedScan() {}

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
   * The next event of one segment's matches, newest first: its time, and the event itself. The time
   * may be known only within bounds ({@link #floor} below {@link #time}: an undecoded block's
   * event), until {@link #settle} reads it.
   */
  abstract static class Cursor {
    final Source source;

    /** The current event's time, or the newest it may have when {@link #floor} is below it. */
    long time;

    /** The oldest time the current event may have: {@link #time} when that is exact. */
    long floor;

    /** Events of blocks the visitor took since the last {@link #advance}; whether it said stop. */
    long taken;

    boolean stopped;

    /**
     * The segment's place in the scan (its source's, then its own within the source's reader):
     * events of equal time in different segments come in this order.
     */
    int order;

    Cursor(Source source) {
      this.source = source;
    }

    /**
     * Moves to the next event and sets {@link #time} and {@link #floor}; false when there is none.
     */
    abstract boolean advance() throws IOException;

    /**
     * Reads the current event's exact time into {@link #time} and {@link #floor} (decoding what
     * holds it); false when the segment turned out to have no event left in range.
     */
    boolean settle() throws IOException {
      floor = time;
      return true;
    }

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
  static final class DocCursor extends Cursor {
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
      floor = time;
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
    return e instanceof java.io.UncheckedIOException unchecked
        ? (CorruptIndexException) unchecked.getCause()
        : (CorruptIndexException) e;
  }

  /**
   * A damaged journal block met reading an event: an unchecked {@link CorruptIndexException} (a
   * visitor reading an undecoded block's time or fields, or {@code _raw}).
   */
  static boolean damagedRead(java.io.UncheckedIOException e) {
    return e.getCause() instanceof CorruptIndexException;
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
