package io.quarry.codecs.store;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.SortedSetDocValuesField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.store.ByteArrayDataInput;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.util.BytesRef;

/**
 * A block document's {@code value → count} per field (issue 23): for {@code host}, {@code source},
 * {@code sourcetype} and every keyword index-time field {@code f} of a block in which
 * <em>every</em> event has a value of {@code f} (a non-empty one for the three default fields), two
 * doc-values fields:
 *
 * <ul>
 *   <li>{@value #VALUES}{@code f}: sorted-set doc values, each distinct value of the block's events
 *       once (as the event layout's doc values hold them: the block's column values);
 *   <li>{@value #COUNTS}{@code f}: binary doc values, the counts in the same (UTF-8 byte) order:
 * </ul>
 *
 * <pre>
 * counts  := version:byte(=1) count:vint{number of values}     count = events with that value
 * </pre>
 *
 * A block without them for {@code f} (some event lacks {@code f}, or it was written before the
 * counts existed) is read event by event. Every event of a counted block has at least one value, so
 * when the counts add up to the block's event count every event has exactly one: then "events whose
 * value satisfies a condition" is the sum of the counts of the values that do, and which value each
 * event has is written beside them ({@link BlockValueCodes}) when the block has several.
 *
 * <p>Read per segment: {@link #open}, then {@link #advanceExact} per block document in increasing
 * doc-id order.
 */
public final class BlockValueCounts {
  static final String VALUES = "_bv.";
  static final String COUNTS = "_bc.";

  /** The grammar version of {@value #COUNTS} values. */
  static final byte VERSION = 1;

  private final SortedSetDocValues values;
  private final BinaryDocValues counts;
  private long[] ords = new long[16];
  private int[] countsOf = new int[16];
  private int size;
  private long total;
  private int doc = -1;
  private BytesRef countBytes; // the current block's counts, decoded when first asked for
  private int ordsRead; // of the current block's ordinals
  private boolean countsRead;

  private BlockValueCounts(SortedSetDocValues values, BinaryDocValues counts) {
    this.values = values;
    this.counts = counts;
  }

  /**
   * Adds the counts of {@code columns}' field values to a block document; returns the fields whose
   * every event has exactly one value, whose values per event the counts and codes now hold exactly
   * (their columns need not be in the block's payload: {@link BlockColumns}).
   */
  static java.util.Set<String> write(Document document, List<Event> columns, IndexOptions options) {
    java.util.Set<String> exact = new java.util.HashSet<>();
    // counted by String (no UTF-8 per event), ordered as UTF-8 bytes once per distinct value
    Map<String, FieldCounts> byField = new HashMap<>();
    int events = columns.size();
    FieldCounts hosts = new FieldCounts(events);
    FieldCounts sources = new FieldCounts(events);
    FieldCounts sourcetypes = new FieldCounts(events);
    // a field without values (eventsWith 0) is skipped below, as a field no event has
    byField.put(EventFields.HOST, hosts);
    byField.put(EventFields.SOURCE, sources);
    byField.put(EventFields.SOURCETYPE, sourcetypes);
    // a field's counts by its position among the event's fields: events of a block name the same
    // fields in the same order (the same name instances), so a field is looked up by name only
    // when the name at its position changes (NOT_COUNTED: a field that is not a keyword)
    String[] slotNames = new String[SLOTS];
    FieldCounts[] slotCounts = new FieldCounts[SLOTS];
    for (int e = 0; e < events; e++) {
      Event event = columns.get(e);
      hosts.addDefault(event.host(), e);
      sources.addDefault(event.source(), e);
      sourcetypes.addDefault(event.sourcetype(), e);
      int position = 0;
      for (Map.Entry<String, List<String>> field : event.indexedFields().entrySet()) {
        String name = field.getKey();
        FieldCounts counts;
        if (position < SLOTS && slotNames[position] == name) {
          counts = slotCounts[position];
        } else {
          counts =
              options.fieldType(name) != IndexedFieldType.KEYWORD
                  ? NOT_COUNTED
                  : byField.computeIfAbsent(name, f -> new FieldCounts(events));
          if (position < SLOTS) {
            slotNames[position] = name;
            slotCounts[position] = counts;
          }
        }
        position++;
        if (counts == NOT_COUNTED || field.getValue().isEmpty()) {
          continue;
        }
        counts.eventsWith++;
        for (String value : field.getValue()) { // distinct per event (the column's values)
          counts.add(value, e);
        }
      }
    }
    for (Map.Entry<String, FieldCounts> field : byField.entrySet()) {
      FieldCounts fieldCounts = field.getValue();
      if (fieldCounts.eventsWith != events) {
        continue; // some event has no value: the block is read for this field
      }
      Value[] order = new Value[fieldCounts.counts.size()];
      int i = 0;
      for (Map.Entry<String, int[]> value : fieldCounts.counts.entrySet()) {
        order[i++] = new Value(new BytesRef(value.getKey()), value.getValue());
      }
      Arrays.sort(order);
      int total = 0;
      for (int rank = 0; rank < order.length; rank++) {
        order[rank].count[1] = rank; // the value's index in the block's order
        total += order[rank].count[0];
      }
      if (total == events) {
        exact.add(field.getKey());
      }
      if (order.length > 1 && total == events) { // one value per event: codes
        int[] codes = new int[events];
        for (int e = 0; e < codes.length; e++) {
          codes[e] = fieldCounts.valueOf[e][1];
        }
        BlockValueCodes.write(document, field.getKey(), codes, codes.length, order.length);
      }
      ByteBuffersDataOutput out = new ByteBuffersDataOutput();
      out.writeByte(VERSION);
      for (Value value : order) {
        document.add(new SortedSetDocValuesField(VALUES + field.getKey(), value.bytes));
        try {
          out.writeVInt(value.count[0]);
        } catch (IOException e) {
          throw new AssertionError(e); // in memory
        }
      }
      document.add(
          new BinaryDocValuesField(COUNTS + field.getKey(), new BytesRef(out.toArrayCopy())));
    }
    return exact;
  }

  /**
   * One field's values in a block: each distinct value's {count, index in the block's order}, how
   * many events have a value, and each event's (last) value's pair — its only one when the block
   * gets codes, so a code is read without looking the value up again.
   */
  /** How many leading fields of an event {@link #write} remembers by position. */
  private static final int SLOTS = 8;

  /** The counts of a field that is not counted (not a keyword): never written. */
  private static final FieldCounts NOT_COUNTED = new FieldCounts(0);

  private static final class FieldCounts {
    final Map<String, int[]> counts = new HashMap<>();
    final int[][] valueOf;
    int eventsWith;
    // the last value added and its pair: a block's host, source and sourcetype, and often an
    // index-time field's value (a status, a method), repeat from one event to the next
    private String last;
    private int[] lastCount;

    FieldCounts(int events) {
      valueOf = new int[events][];
    }

    void add(String value, int event) {
      int[] count;
      if (value.equals(last)) {
        count = lastCount;
      } else {
        count = counts.computeIfAbsent(value, v -> new int[2]); // count, then index
        last = value;
        lastCount = count;
      }
      count[0]++;
      valueOf[event] = count;
    }

    /** A default field's value: counted when not empty (an event always has the field). */
    void addDefault(String value, int event) {
      if (value != null && !value.isEmpty()) {
        eventsWith++;
        add(value, event);
      }
    }
  }

  /** A distinct value's UTF-8 bytes and its {count, index in the block's order}. */
  private record Value(BytesRef bytes, int[] count) implements Comparable<Value> {
    @Override
    public int compareTo(Value other) {
      return bytes.compareTo(other.bytes);
    }
  }

  /**
   * Whether some block bucket of {@code store} has value counts of {@code field} (a search over
   * blocks only counts from them where they exist; elsewhere it reads every event).
   */
  public static boolean anyIn(IndexStore store, String field) throws IOException {
    return anyBlockField(store, VALUES + field);
  }

  /**
   * Whether some block bucket of {@code store} has value codes of {@code field} ({@link
   * BlockValueCodes}).
   */
  public static boolean anyCodesIn(IndexStore store, String field) throws IOException {
    return anyBlockField(store, BlockValueCodes.CODES + field);
  }

  private static boolean anyBlockField(IndexStore store, String luceneField) throws IOException {
    for (Bucket bucket : store.bucketsOverlapping(Long.MIN_VALUE, Long.MAX_VALUE)) {
      if (bucket.format() != BucketFormat.BLOCKS) {
        continue;
      }
      org.apache.lucene.search.IndexSearcher searcher = bucket.acquire();
      try {
        for (org.apache.lucene.index.LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
          if (leaf.reader().getFieldInfos().fieldInfo(luceneField) != null) {
            return true;
          }
        }
      } finally {
        bucket.release(searcher);
      }
    }
    return false;
  }

  /** The counts of {@code field} in a segment of block documents, or null when none has them. */
  public static BlockValueCounts open(LeafReader reader, String field) throws IOException {
    SortedSetDocValues values = reader.getSortedSetDocValues(VALUES + field);
    BinaryDocValues counts = reader.getBinaryDocValues(COUNTS + field);
    return values == null || counts == null ? null : new BlockValueCounts(values, counts);
  }

  /** The segment's values of the field, by ordinal (for {@link SortedSetDocValues#lookupOrd}). */
  public SortedSetDocValues dictionary() {
    return values;
  }

  /** The number of distinct values in the segment. */
  public long valueCount() {
    return values.getValueCount();
  }

  /**
   * Moves to block document {@code doc} (increasing order); false when the block has no counts of
   * the field (some event lacks it, or the block predates the counts): then its events are read.
   * The block's ordinals and counts are decoded when first asked for ({@link #ord}, {@link #count},
   * {@link #total}), ordinals only as far as asked: a count by this field over a few of the block's
   * events reads the ordinals below the highest value they have and none of the counts.
   */
  public boolean advanceExact(int doc) throws IOException {
    if (!values.advanceExact(doc) || !counts.advanceExact(doc)) {
      return false;
    }
    BytesRef bytes = counts.binaryValue();
    if (bytes.length == 0 || bytes.bytes[bytes.offset] != VERSION) {
      return false; // a later grammar this reader does not know: read the events
    }
    this.doc = doc;
    countBytes = bytes;
    size = values.docValueCount();
    if (ords.length < size) {
      ords = new long[size];
      countsOf = new int[size];
    }
    ordsRead = 0;
    countsRead = false;
    return true;
  }

  /** The distinct values of the current block. */
  public int size() {
    return size;
  }

  /** The segment ordinal of the current block's {@code i}-th value. */
  public long ord(int i) throws IOException {
    while (ordsRead <= i) { // the block's ordinals come in order, one after the other
      ords[ordsRead++] = values.nextOrd();
    }
    return ords[i];
  }

  /**
   * The events of the current block with its {@code i}-th value.
   *
   * @throws CorruptIndexException when the counts do not match the values
   */
  public int count(int i) throws IOException {
    readCounts();
    return countsOf[i];
  }

  private void readCounts() throws IOException {
    if (countsRead) {
      return;
    }
    BytesRef bytes = countBytes;
    ByteArrayDataInput in = new ByteArrayDataInput(bytes.bytes, bytes.offset + 1, bytes.length - 1);
    total = 0;
    for (int i = 0; i < size; i++) {
      if (in.eof()) {
        throw new CorruptIndexException("block value counts end early", "doc " + doc);
      }
      countsOf[i] = in.readVInt();
      total += countsOf[i];
    }
    countsRead = true;
  }

  /**
   * The sum of the current block's counts: its event count when every event has exactly one value.
   *
   * @throws CorruptIndexException when the counts do not match the values
   */
  public long total() throws IOException {
    readCounts();
    return total;
  }
}
