package io.quarry.codecs.store;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.SortedSetDocValuesField;
import org.apache.lucene.util.BytesRef;

/**
 * The write side of a block's {@link BlockValueCounts} and {@link BlockValueCodes}: fed each
 * event's values of {@code host}, {@code source}, {@code sourcetype} and of each keyword index-time
 * field while {@link BlockDocuments} walks the block's events (so the events are walked once, and a
 * value's first sight in the block is what tells the block's keywords about it), then {@link #write
 * written} to the block's document. Reusable for the next block after {@link #reset}, which keeps
 * its arrays (the blocks of a batch take one tally).
 */
final class BlockValueTally {
  private int events;
  private final boolean partialCodes;
  private final Map<String, FieldCounts> byField = new HashMap<>();
  final FieldCounts hosts;
  final FieldCounts sources;
  final FieldCounts sourcetypes;
  private int[] codes = new int[0]; // scratch: a field's codes before they are packed

  /** A tally of a block of {@code events} events. */
  BlockValueTally(int events) {
    this(events, true);
  }

  /**
   * A tally of a block of {@code events} events; with {@code partialCodes} false, a field some
   * event lacks gets no values and no codes (as written before session 33): how a test makes such a
   * block.
   */
  BlockValueTally(int events, boolean partialCodes) {
    this.events = events;
    this.partialCodes = partialCodes;
    hosts = field(EventFields.HOST);
    sources = field(EventFields.SOURCE);
    sourcetypes = field(EventFields.SOURCETYPE);
  }

  /**
   * Empties the tally for a block of {@code events} events, keeping its fields' arrays (a field the
   * next block lacks has no values and writes nothing).
   */
  void reset(int events) {
    this.events = events;
    for (FieldCounts counts : byField.values()) {
      counts.clear(events);
    }
  }

  /** The counts of a keyword field, made on first use (the default fields' too). */
  FieldCounts field(String name) {
    return byField.computeIfAbsent(name, f -> new FieldCounts(f, events));
  }

  /**
   * Adds the counts of every field whose every event has a value to {@code document}, and the codes
   * of those whose every event has exactly one of several; of an index-time field some events lack
   * and each other event has one value of, the values and the codes with "no value" ({@link
   * BlockValueCodes#writePartial}). Returns the fields whose values per event the doc values now
   * hold exactly (their columns need not be in the block's payload: {@link BlockColumns}).
   */
  Set<String> write(Document document, java.util.List<Event> block) {
    Set<String> exact = new HashSet<>();
    for (Map.Entry<String, FieldCounts> field : byField.entrySet()) {
      if (writeField(document, field.getKey(), field.getValue(), block)) {
        exact.add(field.getKey());
      }
    }
    return exact;
  }

  /**
   * Writes one field's doc values ({@link #write}); whether they now hold its values per event
   * exactly. One method a field, and its values' loop a method of its own: as one method with its
   * loops, {@code write} was one of the ingest's largest C2 compilations (about 60 KB of code, made
   * four times a run, two of them on-stack replacements of its loop over the fields: 236 KB, 8% of
   * a 2M-line ingest's C2 code; session 41, JFR's {@code jdk.Compilation}).
   */
  private boolean writeField(
      Document document, String name, FieldCounts fieldCounts, java.util.List<Event> block) {
    if (fieldCounts.eventsWith != events) {
      // no counts: the count paths read the block for this field
      return writePartial(document, name, fieldCounts, block);
    }
    int[] order = fieldCounts.inByteOrder();
    boolean oneEach = total(fieldCounts) == events;
    if (order.length > 1 && oneEach) { // one value per event: codes
      BlockValueCodes.write(
          document, name, fieldCounts.codes(codes(), events), events, order.length);
    }
    addValues(document, fieldCounts, order);
    document.add(new BinaryDocValuesField(fieldCounts.countsField, countsOf(fieldCounts, order)));
    return oneEach;
  }

  /** Adds the field's distinct values, in {@code order}, as its sorted-set doc values. */
  private static void addValues(Document document, FieldCounts fieldCounts, int[] order) {
    String values = fieldCounts.valuesField; // one name for all its values
    for (int number : order) {
      document.add(new SortedSetDocValuesField(values, fieldCounts.bytes(number)));
    }
  }

  /**
   * The {@link BlockValueCounts#COUNTS} value: the grammar's version, then each value's count in
   * {@code order} as a vint (Lucene's {@code DataOutput.writeVInt}).
   */
  private static BytesRef countsOf(FieldCounts fieldCounts, int[] order) {
    byte[] out = new byte[1 + 5 * order.length];
    out[0] = BlockValueCounts.VERSION;
    int at = 1;
    for (int number : order) {
      int count = fieldCounts.count(number);
      while ((count & ~0x7F) != 0) {
        out[at++] = (byte) ((count & 0x7F) | 0x80);
        count >>>= 7;
      }
      out[at++] = (byte) count;
    }
    return new BytesRef(out, 0, at);
  }

  /** Scratch codes of at least the block's events (packed when written, so reused). */
  private int[] codes() {
    if (codes.length < events) {
      codes = new int[events];
    }
    return codes;
  }

  /** The sum of a field's values' counts. */
  private static int total(FieldCounts fieldCounts) {
    int total = 0;
    for (int number = 0; number < fieldCounts.size(); number++) {
      total += fieldCounts.count(number);
    }
    return total;
  }

  /**
   * Writes the values and the codes of a field some events lack ({@link BlockValueCodes#PARTIAL})
   * when each event that has it has one value and the text of none that lacks it may give it by
   * search-time extraction ({@link TextMentions}; not a default field: an empty host is no missing
   * one); false when it wrote nothing (the payload keeps the column).
   */
  private boolean writePartial(
      Document document, String name, FieldCounts fieldCounts, java.util.List<Event> block) {
    if (!partialCodes
        || fieldCounts.eventsWith == 0
        || fieldCounts == hosts
        || fieldCounts == sources
        || fieldCounts == sourcetypes) {
      return false;
    }
    int[] order = fieldCounts.inByteOrder();
    if (total(fieldCounts) != fieldCounts.eventsWith) {
      return false; // an event with several values
    }
    int[] codes = codes();
    for (int e = 0; e < events; e++) {
      int code = fieldCounts.code(e);
      if (code < 0 && TextMentions.mayGive(block.get(e).raw(), name)) {
        return false; // "no value" would hide what the text may give: the payload keeps it
      }
      codes[e] = code < 0 ? order.length : code;
    }
    BlockValueCodes.writePartial(document, name, codes, events, order.length);
    addValues(document, fieldCounts, order);
    return true;
  }

  /**
   * One field's values in a block: each distinct value's count and (once ordered) its index in the
   * block's order, how many events have a value, and each event's (last) value — its only one when
   * the block gets codes, so a code is read without looking the value up again. The values are
   * numbered in first-seen order behind an open-addressing table of their numbers: no object per
   * value or event.
   */
  static final class FieldCounts {
    private String[] values = new String[16]; // by number, first seen first
    private int[] counts = new int[16]; // by number
    private int size;
    private int[] table = new int[32]; // number + 1 per slot (0: empty), at most half full
    private int[] valueOf; // by event: its last value's number + 1, 0 for none
    private int eventsWith;
    private int[] ranks; // by number: the index in the block's order, once ordered
    private BytesRef[] bytes; // by number: the UTF-8 bytes, once ordered
    // the last value added and its number: a block's host, source and sourcetype, and often an
    // index-time field's value (a status, a method), repeat from one event to the next
    private String last;
    private int lastNumber;
    // the doc values' field names, made once rather than a block
    private final String valuesField;
    private final String countsField;

    private FieldCounts(String name, int events) {
      valueOf = new int[events];
      valuesField = BlockValueCounts.VALUES + name;
      countsField = BlockValueCounts.COUNTS + name;
    }

    /** Empties the counts for a block of {@code events} events, keeping the arrays. */
    private void clear(int events) {
      if (size > 0) {
        Arrays.fill(values, 0, size, null);
        Arrays.fill(counts, 0, size, 0);
        Arrays.fill(table, 0);
      }
      size = 0;
      eventsWith = 0;
      last = null;
      ranks = null;
      bytes = null;
      if (valueOf.length < events) {
        valueOf = new int[events];
      } else {
        Arrays.fill(valueOf, 0, events, 0);
      }
    }

    /**
     * Counts the values of an event that has some, each given once ({@link #add}); call before
     * them.
     */
    void countEvent() {
      eventsWith++;
    }

    /** Counts one of event {@code event}'s values; true when the block had not had it before. */
    boolean add(String value, int event) {
      int number;
      boolean added = false;
      if (value.equals(last)) {
        number = lastNumber;
      } else {
        int mask = table.length - 1;
        int slot = spread(value.hashCode()) & mask;
        while (true) {
          int held = table[slot] - 1;
          if (held < 0) {
            number = append(value);
            table[slot] = number + 1;
            added = true;
            if (2 * size > table.length) {
              rehash();
            }
            break;
          }
          if (values[held].equals(value)) {
            number = held;
            break;
          }
          slot = (slot + 1) & mask;
        }
        last = value;
        lastNumber = number;
      }
      counts[number]++;
      valueOf[event] = number + 1;
      return added;
    }

    private static int spread(int hash) {
      return (hash ^ (hash >>> 16)) * 0x9E3779B1;
    }

    private int append(String value) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
        counts = Arrays.copyOf(counts, size * 2);
      }
      values[size] = value;
      return size++;
    }

    private void rehash() {
      int[] grown = new int[table.length * 2];
      int mask = grown.length - 1;
      for (int number = 0; number < size; number++) {
        int slot = spread(values[number].hashCode()) & mask;
        while (grown[slot] != 0) {
          slot = (slot + 1) & mask;
        }
        grown[slot] = number + 1;
      }
      table = grown;
    }

    /** A default field's value: counted when not empty (an event always has the field). */
    void addDefault(String value, int event) {
      if (value != null && !value.isEmpty()) {
        eventsWith++;
        add(value, event);
      }
    }

    /** The number of distinct values. */
    int size() {
      return size;
    }

    /**
     * Orders the distinct values by their UTF-8 bytes ({@link ValueOrder}): returns their numbers
     * in that order, and sets each one's {@link #rank} and {@link #bytes}.
     */
    int[] inByteOrder() {
      bytes = new BytesRef[size];
      int[] order = ValueOrder.of(values, size, bytes);
      ranks = new int[size];
      for (int rank = 0; rank < order.length; rank++) {
        ranks[order[rank]] = rank;
      }
      return order;
    }

    /** Value {@code number}'s UTF-8 bytes, once ordered. */
    BytesRef bytes(int number) {
      return bytes[number];
    }

    /** Value {@code number}'s count. */
    int count(int number) {
      return counts[number];
    }

    /**
     * Every event's value's index in the block's order into {@code into[0, events)}, each event
     * having one value; returns {@code into}.
     */
    int[] codes(int[] into, int events) {
      for (int e = 0; e < events; e++) {
        into[e] = ranks[valueOf[e] - 1];
      }
      return into;
    }

    /** Event {@code event}'s (last) value's index in the block's order, or -1 when it has none. */
    int code(int event) {
      int number = valueOf[event] - 1;
      return number < 0 ? -1 : ranks[number];
    }
  }
}
