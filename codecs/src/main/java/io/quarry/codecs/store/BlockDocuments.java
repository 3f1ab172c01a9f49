package io.quarry.codecs.store;

import io.quarry.codecs.block.EventBlockWriter;
import io.quarry.codecs.block.TermFilter;
import io.quarry.codecs.block.TermFilterEntries;
import io.quarry.codecs.tokens.TermSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.BytesTermAttribute;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.LongRange;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.BytesRefBuilder;

/**
 * The block layout's documents ({@link BucketFormat#BLOCKS}, issue 23): a batch cut into blocks of
 * at most {@link IndexOptions#blockEvents()} consecutive events (so a block's sequence numbers are
 * one range), each sorted newest first (stably) and written as one document:
 *
 * <ul>
 *   <li>{@value #TERM_FILTER}: in a layout 3 bucket ({@link Bucket#termFilters}), binary doc values
 *       holding a {@link TermFilter} of each distinct term of the block's events ({@link TermSet})
 *       and of each distinct {@link TermFilter#PREFIX}-byte prefix of them (handed to the writer as
 *       their hashes, {@link TermFilterEntries}: the filter leaves the segment's common terms out,
 *       which only the segment's writer knows); in older block buckets, {@code _tok}: each distinct
 *       term once, inverted by Lucene;
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
 *       sorted and printed, a value that does not parse as its declared type left out. A column
 *       whose every event has exactly one value is held by {@code _bv}/{@code _bc}/{@code _be}
 *       alone: the payload names it "elsewhere" (event block version 2) and {@link BlockColumns}
 *       reads it back from the doc values, so it is not stored twice.
 * </ul>
 *
 * A term or keyword query finds candidate blocks; every event of a candidate is checked on its own.
 */
final class BlockDocuments {
  static final String BLOCK = "_block";
  static final String TIME_RANGE = "_trange";
  static final String FIRST_SEQUENCE = "_seq0";
  static final String COUNT = "_n";
  static final String COMPLETE = "_complete";
  static final String OLDEST = "_tmin";
  static final String TERM_FILTER = io.quarry.codecs.block.TermFilterFormat.FIELD;

  private final IndexOptions options;
  private final boolean columnsElsewhere;
  private final boolean partialCodes;

  BlockDocuments(IndexOptions options) {
    this(options, true, true);
  }

  BlockDocuments(IndexOptions options, boolean columnsElsewhere) {
    this(options, columnsElsewhere, true);
  }

  /**
   * With {@code columnsElsewhere} false, every column stays in the payload (event block version 1,
   * as written before the columns moved out); with {@code partialCodes} false, a field some event
   * lacks gets no values and codes ({@link BlockValueTally}, as written before session 33): how a
   * test makes the older layouts' blocks.
   */
  BlockDocuments(IndexOptions options, boolean columnsElsewhere, boolean partialCodes) {
    this.options = options;
    this.columnsElsewhere = columnsElsewhere;
    this.partialCodes = partialCodes;
  }

  /**
   * Adds the events of one batch, whose first has sequence number {@code firstSequence}, to {@code
   * bucket} as block documents.
   */
  void add(Bucket bucket, List<Event> batch, long firstSequence) throws IOException {
    TermSet terms = new TermSet();
    int perBlock = options.blockEvents();
    BlockValueTally tally = new BlockValueTally(Math.min(perBlock, batch.size()), partialCodes);
    // each block's, in turn (added before the next); a batch of one block takes an exact new array
    BytesRefBuilder payload = batch.size() > perBlock ? new BytesRefBuilder() : null;
    BlockKeywords keywords = null; // the first block's, reset for each next one
    for (int from = 0; from < batch.size(); from += perBlock) {
      int to = Math.min(batch.size(), from + perBlock);
      long[] times = new long[to - from];
      for (int i = 0; i < times.length; i++) {
        times[i] = batch.get(from + i).timeMicros();
      }
      // newest first; a stable sort, so events of equal time keep their batch order
      int[] order = NewestFirst.order(times);
      List<Event> block = new ArrayList<>(order.length);
      for (int i = 0; i < order.length; i++) {
        block.add(batch.get(from + order[i]));
      }
      long newest = block.get(0).timeMicros();
      long oldest = block.get(block.size() - 1).timeMicros();
      tally.reset(block.size());
      Document document = new Document();
      if (keywords == null) {
        keywords = new BlockKeywords(document);
      } else {
        keywords.reset(document);
      }
      document(
          document,
          block,
          firstSequence + from,
          terms,
          tally,
          keywords,
          bucket.termFilters(),
          payload);
      bucket.add(document, oldest, newest, block.size(), firstSequence + to - 1);
    }
  }

  /** The document of one block of a layout 3 bucket, its events newest first. */
  Document document(List<Event> block, long firstSequence, TermSet terms) {
    return document(block, firstSequence, terms, true);
  }

  /**
   * The document of one block, its events newest first (an event's {@code _raw} read from its ASCII
   * bytes where it holds them, {@link Event#asciiArray}); its terms as a {@link TermFilter} ({@code
   * termFilter}, layout 3) or as {@code _tok} postings (older layouts).
   */
  Document document(List<Event> block, long firstSequence, TermSet terms, boolean termFilter) {
    Document document = new Document();
    document(
        document,
        block,
        firstSequence,
        terms,
        new BlockValueTally(block.size(), partialCodes),
        new BlockKeywords(document),
        termFilter,
        null);
    return document;
  }

  /**
   * {@link #document(List, long, TermSet, boolean)} into {@code document} (new), with the values
   * tallied in {@code tally} (empty, for this block's events), the keywords in {@code keywords}
   * (empty, adding to {@code document}) and the payload written into {@code payload}'s array (null:
   * a new one), so the document must be added before {@code payload} or {@code tally} is used
   * again.
   */
  private void document(
      Document document,
      List<Event> block,
      long firstSequence,
      TermSet terms,
      BlockValueTally tally,
      BlockKeywords keywords,
      boolean termFilter,
      BytesRefBuilder payload) {
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
    terms.clear();
    List<Event> columns = new ArrayList<>(block.size());
    Map<String, int[]> complete = new HashMap<>(); // events with a column value, by field
    BlockFieldColumns.FieldSlot[] slots =
        new BlockFieldColumns.FieldSlot[BlockFieldColumns.FieldSlot.SLOTS];
    for (int i = 0; i < block.size(); i++) {
      Event event = block.get(i);
      byte[] ascii = event.asciiArray();
      if (ascii != null) {
        terms.addAscii(ascii, event.asciiOffset(), event.asciiLength());
      } else {
        terms.add(event.raw());
      }
      keywords.add(keywords.hosts, event.host());
      keywords.add(keywords.sources, event.source());
      keywords.add(keywords.sourcetypes, event.sourcetype());
      tally.hosts.addDefault(event.host(), i);
      tally.sources.addDefault(event.source(), i);
      tally.sourcetypes.addDefault(event.sourcetype(), i);
      columns.add(BlockFieldColumns.columnsOf(options, event, i, keywords, tally, complete, slots));
    }
    complete.forEach(
        (field, events) -> {
          if (events[0] == block.size()) {
            document.add(new StringField(COMPLETE, field, Field.Store.NO));
          }
        });
    Set<String> exact = tally.write(document, block);
    if (termFilter) {
      document.add(new BinaryDocValuesField(TERM_FILTER, entriesOf(terms)));
    } else {
      document.add(new Field(EventFields.TOKENS, terms.tokenStream(), EventDocuments.TERMS));
    }
    document.add(
        new StoredField(
            BLOCK, EventBlockWriter.write(columns, columnsElsewhere ? exact : Set.of(), payload)));
  }

  /**
   * The filter entries of the set's terms (each handed out by its token stream, as Lucene would see
   * it) and their prefixes.
   */
  private static BytesRef entriesOf(TermSet terms) {
    long[] hashes = new long[terms.size() * 2];
    int count = 0;
    long[] prefixes = new long[Integer.highestOneBit(Math.max(terms.size(), 1)) * 4]; // 0: empty
    try (TokenStream stream = terms.tokenStream()) {
      BytesTermAttribute term = stream.getAttribute(BytesTermAttribute.class);
      stream.reset();
      while (stream.incrementToken()) {
        BytesRef bytes = term.getBytesRef();
        hashes[count++] = TermFilter.hash(bytes);
        if (bytes.length >= TermFilter.PREFIX) {
          long prefix = TermFilter.prefixHash(bytes.bytes, bytes.offset);
          if (addDistinct(prefixes, prefix == 0 ? 1 : prefix)) {
            hashes[count++] = prefix;
          }
        }
      }
      stream.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // an in-memory stream
    }
    return TermFilterEntries.of(hashes, count); // the filter is built when the segment is written
  }

  /**
   * Adds a nonzero hash to an open-addressing set (at most half full: a term has at most one
   * prefix, and the table holds at least twice the terms); whether it was new.
   */
  private static boolean addDistinct(long[] table, long hash) {
    int mask = table.length - 1;
    for (int slot = (int) (hash ^ (hash >>> 32)) & mask; ; slot = (slot + 1) & mask) {
      if (table[slot] == hash) {
        return false;
      }
      if (table[slot] == 0) {
        table[slot] = hash;
        return true;
      }
    }
  }
}
