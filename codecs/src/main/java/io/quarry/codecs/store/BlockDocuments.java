package io.quarry.codecs.store;

import io.quarry.codecs.block.EventBlockWriter;
import io.quarry.codecs.tokens.TermSet;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.LongRange;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.NumericUtils;

/**
 * The block layout's documents ({@link BucketFormat#BLOCKS}, issue 23): a batch cut into blocks of
 * at most {@link #EVENTS_PER_BLOCK} consecutive events (so a block's sequence numbers are one
 * range), each sorted newest first (stably) and written as one document:
 *
 * <ul>
 *   <li>{@code _tok}: each distinct term of the block's events once ({@link TermSet});
 *   <li>{@code _kw.<f>}: each distinct lower-cased value of {@code host}, {@code source}, {@code
 *       sourcetype} and every index-time field, once;
 *   <li>{@code _time}: the oldest and newest event's time as points (the bucket's bounds), the
 *       newest as numeric doc values (the index sort); {@value #TIME_RANGE}: the same range as a
 *       range field, which a scan's time range intersects;
 *   <li>{@value #COMPLETE}: the name of each index-time field every event of the block has a value
 *       of (as the event layout's doc values would), so a search for events without one skips the
 *       block;
 *   <li>{@value #FIRST_SEQUENCE} and {@value #COUNT}: numeric doc values, the first sequence number
 *       and the number of events (recovery and the bucket's counts); {@value #OLDEST}: numeric doc
 *       values, the oldest event's time (with {@code _time}'s newest: whether a block lies wholly
 *       inside a search's range or one time bucket);
 *   <li>{@code _bv.<f>}, {@code _bc.<f>}: each distinct value of a field and how many events have
 *       it, for the fields every event of the block has ({@link BlockValueCounts}), so a count by
 *       field reads no event;
 *   <li>{@value #BLOCK}: the {@link io.quarry.codecs.block.EventBlock} payload, the only stored
 *       field, compressed by the journal. Index-time values are kept in its columns as the event
 *       layout's doc values give them back: keywords sorted and deduplicated, numbers parsed,
 *       sorted and printed, a value that does not parse as its declared type left out.
 * </ul>
 *
 * A term or keyword query finds candidate blocks; every event of a candidate is checked on its own.
 */
final class BlockDocuments {
  /** The most events one block document holds. */
  static final int EVENTS_PER_BLOCK = 256;

  static final String BLOCK = "_block";
  static final String TIME_RANGE = "_trange";
  static final String FIRST_SEQUENCE = "_seq0";
  static final String COUNT = "_n";
  static final String COMPLETE = "_complete";
  static final String OLDEST = "_tmin";

  private final IndexOptions options;

  BlockDocuments(IndexOptions options) {
    this.options = options;
  }

  /**
   * Adds the events of one batch, whose first has sequence number {@code firstSequence}, to {@code
   * bucket} as block documents.
   */
  void add(Bucket bucket, List<Event> batch, long firstSequence) throws IOException {
    TermSet terms = new TermSet();
    for (int from = 0; from < batch.size(); from += EVENTS_PER_BLOCK) {
      int to = Math.min(batch.size(), from + EVENTS_PER_BLOCK);
      List<Event> block = new ArrayList<>(batch.subList(from, to));
      // newest first; a stable sort, so events of equal time keep their batch order
      block.sort(Comparator.comparingLong(Event::timeMicros).reversed());
      long newest = block.get(0).timeMicros();
      long oldest = block.get(block.size() - 1).timeMicros();
      Document document = document(block, firstSequence + from, terms);
      bucket.add(document, oldest, newest, block.size(), firstSequence + to - 1);
    }
  }

  private Document document(List<Event> block, long firstSequence, TermSet terms) {
    Document document = new Document();
    long newest = block.get(0).timeMicros();
    long oldest = block.get(block.size() - 1).timeMicros();
    document.add(new LongPoint(EventFields.TIME, oldest));
    if (newest != oldest) {
      document.add(new LongPoint(EventFields.TIME, newest));
    }
    document.add(new NumericDocValuesField(EventFields.TIME, newest));
    document.add(new NumericDocValuesField(OLDEST, oldest));
    document.add(new LongRange(TIME_RANGE, new long[] {oldest}, new long[] {newest}));
    document.add(new NumericDocValuesField(FIRST_SEQUENCE, firstSequence));
    document.add(new NumericDocValuesField(COUNT, block.size()));
    Set<String> keywords = new HashSet<>();
    List<Event> columns = new ArrayList<>(block.size());
    Map<String, Integer> complete = new HashMap<>(); // events with a value, by field
    terms.clear();
    for (Event event : block) {
      terms.add(event.raw());
      keyword(document, keywords, EventFields.HOST, event.host());
      keyword(document, keywords, EventFields.SOURCE, event.source());
      keyword(document, keywords, EventFields.SOURCETYPE, event.sourcetype());
      for (Map.Entry<String, List<String>> field : event.indexedFields().entrySet()) {
        for (String value : field.getValue()) {
          keyword(document, keywords, field.getKey(), value);
        }
      }
      Event readBack = readBack(event);
      columns.add(readBack);
      readBack.indexedFields().keySet().forEach(f -> complete.merge(f, 1, Integer::sum));
    }
    complete.forEach(
        (field, events) -> {
          if (events == block.size()) {
            document.add(new StringField(COMPLETE, field, Field.Store.NO));
          }
        });
    BlockValueCounts.write(document, columns, options);
    document.add(new Field(EventFields.TOKENS, terms.tokenStream(), IndexStore.TERMS));
    document.add(new StoredField(BLOCK, EventBlockWriter.write(columns)));
    return document;
  }

  private static void keyword(Document document, Set<String> seen, String field, String value) {
    String term = EventFields.keywordTerm(value);
    if (term != null && seen.add(field + '\u0000' + term)) {
      document.add(new StringField(EventFields.keywordField(field), term, Field.Store.NO));
    }
  }

  /** The event with its index-time values as the event layout reads them back ({@link #column}). */
  private Event readBack(Event event) {
    if (event.indexedFields().isEmpty()) {
      return event;
    }
    Map<String, List<String>> fields = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> field : event.indexedFields().entrySet()) {
      List<String> column = column(options.fieldType(field.getKey()), field.getValue());
      if (!column.isEmpty()) {
        fields.put(field.getKey(), column);
      }
    }
    return new Event(
        event.timeMicros(), event.raw(), event.host(), event.source(), event.sourcetype(), fields);
  }

  /**
   * One field's values as the event layout's doc values return them: keywords as sorted-set doc
   * values hold them (distinct, in UTF-8 byte order), numbers parsed, in numeric order, printed by
   * {@code Long.toString} / {@code Double.toString}; values that do not parse are left out.
   */
  static List<String> column(IndexedFieldType type, List<String> values) {
    switch (type) {
      case KEYWORD -> {
        if (values.size() == 1) {
          return values;
        }
        BytesRef[] sorted = values.stream().map(BytesRef::new).distinct().toArray(BytesRef[]::new);
        Arrays.sort(sorted);
        return Arrays.stream(sorted).map(BytesRef::utf8ToString).toList();
      }
      case LONG -> {
        return values.stream()
            .filter(v -> type.problem(v) == null)
            .mapToLong(v -> Long.parseLong(v.strip()))
            .sorted()
            .mapToObj(Long::toString)
            .toList();
      }
      case DOUBLE -> {
        return values.stream()
            .filter(v -> type.problem(v) == null)
            .mapToLong(v -> NumericUtils.doubleToSortableLong(Double.parseDouble(v.strip())))
            .sorted()
            .mapToObj(v -> Double.toString(NumericUtils.sortableLongToDouble(v)))
            .toList();
      }
      default -> throw new AssertionError(type);
    }
  }
}
