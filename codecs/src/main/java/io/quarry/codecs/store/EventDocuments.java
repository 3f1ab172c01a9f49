package io.quarry.codecs.store;

import io.quarry.codecs.tokens.TermTokenStream;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.SortedNumericDocValuesField;
import org.apache.lucene.document.SortedSetDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.NumericUtils;

/**
 * The event layout's documents ({@link BucketFormat#EVENTS}): one Lucene document per event, with
 *
 * <ul>
 *   <li>{@code _seq} and {@code _time} as points, {@code _time} as numeric doc values (the index
 *       sort), {@code _raw} as the only stored field (the journal compresses it);
 *   <li>{@code host}, {@code source}, {@code sourcetype}: a lower-cased keyword term for search and
 *       sorted doc values for reads;
 *   <li>every index-time field: a keyword term per value, and its values as the field's declared
 *       type has them ({@link IndexedFieldType}: sorted-set doc values for keywords, points and
 *       sorted-numeric doc values for numbers);
 *   <li>{@code _tok}: the raw text's terms ({@link TermTokenStream}), postings only.
 * </ul>
 *
 * The block layout's counterpart is {@link BlockDocuments}.
 */
final class EventDocuments {
  private static final Logger LOG = Logger.getLogger(EventDocuments.class.getName());

  /** The term index field: DOCS-only postings, no norms, not stored (both layouts). */
  static final FieldType TERMS = termsFieldType();

  private final String index;
  private final IndexOptions options;

  EventDocuments(String index, IndexOptions options) {
    this.index = index;
    this.options = options;
  }

  /** The document of {@code event}, the {@code sequence}-th event of the index. */
  Document of(Event event, long sequence) {
    Document document = new Document();
    document.add(new LongPoint(EventFields.SEQUENCE, sequence));
    document.add(new LongPoint(EventFields.TIME, event.timeMicros()));
    document.add(new NumericDocValuesField(EventFields.TIME, event.timeMicros()));
    document.add(new StoredField(EventFields.RAW, event.raw()));
    defaultField(document, EventFields.HOST, event.host());
    defaultField(document, EventFields.SOURCE, event.source());
    defaultField(document, EventFields.SOURCETYPE, event.sourcetype());
    for (Map.Entry<String, List<String>> field : event.indexedFields().entrySet()) {
      String name = field.getKey();
      IndexedFieldType type = options.fieldType(name);
      for (String value : field.getValue()) {
        keywordTerm(document, name, value);
        if (type.problem(value) != null) {
          // only after the type was changed in config with events still in the log: keep the term
          LOG.warning(
              "index "
                  + index
                  + ": field '"
                  + name
                  + "' value '"
                  + value
                  + "' is not a "
                  + type.configName()
                  + "; indexed as a term only");
          continue;
        }
        String valuesField = EventFields.valuesField(name, type);
        switch (type) {
          case KEYWORD ->
              document.add(new SortedSetDocValuesField(valuesField, new BytesRef(value)));
          case LONG -> {
            long parsed = Long.parseLong(value.strip());
            document.add(new LongPoint(valuesField, parsed));
            document.add(new SortedNumericDocValuesField(valuesField, parsed));
          }
          case DOUBLE -> {
            double parsed = Double.parseDouble(value.strip());
            document.add(new DoublePoint(valuesField, parsed));
            document.add(
                new SortedNumericDocValuesField(
                    valuesField, NumericUtils.doubleToSortableLong(parsed)));
          }
        }
      }
    }
    document.add(new Field(EventFields.TOKENS, TermTokenStream.of(event.raw()), TERMS));
    return document;
  }

  private static FieldType termsFieldType() {
    FieldType type = new FieldType();
    type.setIndexOptions(org.apache.lucene.index.IndexOptions.DOCS);
    type.setTokenized(true);
    type.setOmitNorms(true);
    type.setStored(false);
    type.freeze();
    return type;
  }

  /** host, source, sourcetype: a lower-cased term for search and sorted doc values for reads. */
  private static void defaultField(Document document, String field, String value) {
    keywordTerm(document, field, value);
    document.add(new SortedDocValuesField(field, new BytesRef(value)));
  }

  private static void keywordTerm(Document document, String field, String value) {
    String keyword = EventFields.keywordTerm(value);
    if (keyword != null) {
      document.add(new StringField(EventFields.keywordField(field), keyword, Field.Store.NO));
    }
  }
}
