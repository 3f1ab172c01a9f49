package io.quarry.codecs.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.util.NumericUtils;

/**
 * Reads the doc-values fields of events in one segment, in increasing doc-id order: {@code host},
 * {@code source}, {@code sourcetype} and the typed index-time fields (see {@link EventFields}).
 * Doc-values iterators only move forward: index-time fields read for an earlier document than the
 * last one restart their column (rare: rows buffered by a later stage and read at its end).
 */
final class EventColumns {
  private SortedDocValues host;
  private SortedDocValues source;
  private SortedDocValues sourcetype;
  private final List<String> keywordNames = new ArrayList<>();
  private final List<SortedSetDocValues> keywords = new ArrayList<>();
  private final List<OrdinalTexts> keywordTexts = new ArrayList<>(); // their values' texts
  private final SegmentDictionaries dictionaries = new SegmentDictionaries(); // this scan's
  private final int[] keywordDoc; // per keyword field: the document last read, -1 for none yet
  private final long[] keywordOrd; // its one ordinal, or NO_ORDINAL (no value, or keywordValues)
  private final List<List<String>> keywordValues; // its several values
  private final List<String> numberNames = new ArrayList<>();
  private final List<IndexedFieldType> numberTypes = new ArrayList<>();
  private final List<SortedNumericDocValues> numbers = new ArrayList<>();

  private final LeafReader reader;

  EventColumns(LeafReader reader) throws IOException {
    this.reader = reader;
    host = reader.getSortedDocValues(EventFields.HOST);
    source = reader.getSortedDocValues(EventFields.SOURCE);
    sourcetype = reader.getSortedDocValues(EventFields.SOURCETYPE);
    hostTexts = cache(host);
    sourceTexts = cache(source);
    sourcetypeTexts = cache(sourcetype);
    for (FieldInfo info : reader.getFieldInfos()) {
      IndexedFieldType type = EventFields.valuesFieldType(info.name);
      if (type == null || info.getDocValuesType() == DocValuesType.NONE) {
        continue;
      }
      String field = info.name.substring(3);
      if (type == IndexedFieldType.KEYWORD) {
        keywordNames.add(field);
        SortedSetDocValues values = DocValues.getSortedSet(reader, info.name);
        keywords.add(values);
        keywordTexts.add(new OrdinalTexts(field, values.getValueCount(), dictionaries));
      } else {
        numberNames.add(field);
        numberTypes.add(type);
        numbers.add(DocValues.getSortedNumeric(reader, info.name));
      }
    }
    keywordDoc = new int[keywords.size()];
    java.util.Arrays.fill(keywordDoc, -1);
    keywordOrd = new long[keywords.size()];
    keywordValues = new ArrayList<>(java.util.Collections.nCopies(keywords.size(), null));
  }

  /** Decoded values by ordinal: a segment has few hosts, sources and sourcetypes. */
  private final String[] hostTexts;

  private final String[] sourceTexts;
  private final String[] sourcetypeTexts;

  /**
   * The most host, source or sourcetype ordinals decoded at most once per segment and scan (past it
   * each lookup decompresses a block of the terms dictionary); a keyword index-time field's texts
   * are its {@link OrdinalTexts}.
   */
  private static final int MAX_CACHED_ORDINALS = 1 << 16;

  private static String[] cache(SortedDocValues values) {
    return values == null
        ? null
        : new String[Math.min(values.getValueCount(), MAX_CACHED_ORDINALS)];
  }

  /** The current value of {@code values} as text, decoded once per ordinal when it is cached. */
  private static String text(SortedDocValues values, String[] cache) throws IOException {
    int ord = values.ordValue();
    if (ord >= cache.length) {
      return values.lookupOrd(ord).utf8ToString();
    }
    String text = cache[ord];
    if (text == null) {
      text = values.lookupOrd(ord).utf8ToString();
      cache[ord] = text;
    }
    return text;
  }

  /**
   * Whether the segment predates doc values for the default fields (they are stored fields there).
   */
  boolean legacy() {
    return host == null && source == null && sourcetype == null;
  }

  /**
   * {@code host}, {@code source} or {@code sourcetype} of {@code doc}, "" when it has none. Each is
   * read only when a stage asks for it (a {@code rex | stats count by ip} reads none); a column
   * asked for an earlier document than its last restarts, as index-time fields do.
   */
  String defaultField(int doc, String name) throws IOException {
    switch (name) {
      case EventFields.HOST -> {
        host = positioned(host, name, doc);
        return host != null && host.advanceExact(doc) ? text(host, hostTexts) : "";
      }
      case EventFields.SOURCE -> {
        source = positioned(source, name, doc);
        return source != null && source.advanceExact(doc) ? text(source, sourceTexts) : "";
      }
      case EventFields.SOURCETYPE -> {
        sourcetype = positioned(sourcetype, name, doc);
        return sourcetype != null && sourcetype.advanceExact(doc)
            ? text(sourcetype, sourcetypeTexts)
            : "";
      }
      default -> throw new IllegalArgumentException("not a default field: " + name);
    }
  }

  /** {@code values}, or the column anew when it is already past {@code doc}. */
  private SortedDocValues positioned(SortedDocValues values, String field, int doc)
      throws IOException {
    return values != null && values.docID() > doc ? reader.getSortedDocValues(field) : values;
  }

  /**
   * The segment ordinal of {@code doc}'s one value of keyword field {@code field}, or {@link
   * StoredEvent#NO_ORDINAL} when it has none or several or the field is not a keyword one.
   */
  long keywordOrdinal(int doc, String field) throws IOException {
    int keyword = keywordNames.indexOf(field);
    if (keyword < 0) {
      return StoredEvent.NO_ORDINAL;
    }
    readKeyword(keyword, doc);
    return keywordOrd[keyword];
  }

  /** The text of a segment ordinal of keyword field {@code field} (decoded once when cached). */
  String keywordText(String field, long ord) throws IOException {
    int keyword = keywordNames.indexOf(field);
    return keywordTexts.get(keyword).text(keywords.get(keyword), ord);
  }

  /**
   * Reads keyword field {@code keyword} of {@code doc} into {@link #keywordOrd} or {@link
   * #keywordValues}, once per document however often asked (doc values are read once per document).
   */
  private void readKeyword(int keyword, int doc) throws IOException {
    if (keywordDoc[keyword] == doc) {
      return;
    }
    SortedSetDocValues values = keywords.get(keyword);
    if (values.docID() > doc) { // an earlier event asked late: start the column over
      values =
          DocValues.getSortedSet(
              reader, EventFields.valuesField(keywordNames.get(keyword), IndexedFieldType.KEYWORD));
      keywords.set(keyword, values);
    }
    keywordDoc[keyword] = doc;
    keywordOrd[keyword] = StoredEvent.NO_ORDINAL;
    keywordValues.set(keyword, null);
    if (!values.advanceExact(doc)) {
      return;
    }
    if (values.docValueCount() == 1) {
      keywordOrd[keyword] = values.nextOrd();
      return;
    }
    OrdinalTexts texts = keywordTexts.get(keyword);
    List<String> list = new ArrayList<>(values.docValueCount());
    for (int v = 0; v < values.docValueCount(); v++) {
      list.add(texts.text(values, values.nextOrd()));
    }
    keywordValues.set(keyword, list);
  }

  /** Whether the segment has index-time field {@code field}. */
  boolean hasIndexedField(String field) {
    return keywordNames.contains(field) || numberNames.contains(field);
  }

  List<String> indexedFieldNames() {
    List<String> names = new ArrayList<>(keywordNames);
    names.addAll(numberNames);
    return names;
  }

  /**
   * The values of one index-time field of {@code doc}, or null when the document has none. Read
   * documents in increasing order (an earlier one starts the field's column over).
   */
  List<String> indexedField(int doc, String field) throws IOException {
    int keyword = keywordNames.indexOf(field);
    if (keyword >= 0) {
      readKeyword(keyword, doc);
      long ord = keywordOrd[keyword];
      if (ord >= 0) { // the common case: one value, an immutable list of it
        return List.of(keywordTexts.get(keyword).text(keywords.get(keyword), ord));
      }
      return keywordValues.get(keyword);
    }
    int number = numberNames.indexOf(field);
    if (number < 0) {
      return null;
    }
    SortedNumericDocValues values = numbers.get(number);
    if (values.docID() > doc) { // an earlier event asked late: start the column over
      values =
          DocValues.getSortedNumeric(
              reader, EventFields.valuesField(field, numberTypes.get(number)));
      numbers.set(number, values);
    }
    if (!values.advanceExact(doc)) {
      return null;
    }
    boolean isDouble = numberTypes.get(number) == IndexedFieldType.DOUBLE;
    List<String> list = new ArrayList<>(values.docValueCount());
    for (int v = 0; v < values.docValueCount(); v++) {
      long value = values.nextValue();
      list.add(
          isDouble
              ? Double.toString(NumericUtils.sortableLongToDouble(value))
              : Long.toString(value));
    }
    return list;
  }
}
