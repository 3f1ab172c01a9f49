package io.quarry.codecs.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.SortedSetDocValuesField;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.util.BytesRef;

/**
 * The write side of a block's {@link BlockValueCounts} and {@link BlockValueCodes}: fed each
 * event's values of {@code host}, {@code source}, {@code sourcetype} and of each keyword index-time
 * field while {@link BlockDocuments} walks the block's events (so the events are walked once, and a
 * value's first sight in the block is what tells the block's keywords about it), then {@link #write
 * written} to the block's document.
 */
final class BlockValueTally {
  private final int events;
  private final boolean partialCodes;
  private final Map<String, FieldCounts> byField = new HashMap<>();
  final FieldCounts hosts;
  final FieldCounts sources;
  final FieldCounts sourcetypes;

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

  /** The counts of a keyword field, made on first use (the default fields' too). */
  FieldCounts field(String name) {
    return byField.computeIfAbsent(name, f -> new FieldCounts(events));
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
      FieldCounts fieldCounts = field.getValue();
      if (fieldCounts.eventsWith != events) {
        if (writePartial(document, field.getKey(), fieldCounts, block)) {
          exact.add(field.getKey());
        }
        continue; // no counts: the count paths read the block for this field
      }
      Value[] order = fieldCounts.inByteOrder();
      int total = ranked(order);
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
      out.writeByte(BlockValueCounts.VERSION);
      String values = BlockValueCounts.VALUES + field.getKey(); // one name for all its values
      for (Value value : order) {
        document.add(new SortedSetDocValuesField(values, value.bytes));
        try {
          out.writeVInt(value.count[0]);
        } catch (IOException e) {
          throw new AssertionError(e); // in memory
        }
      }
      document.add(
          new BinaryDocValuesField(
              BlockValueCounts.COUNTS + field.getKey(), new BytesRef(out.toArrayCopy())));
    }
    return exact;
  }

  /** Gives each value its index in the block's order; returns the sum of their counts. */
  private static int ranked(Value[] order) {
    int total = 0;
    for (int rank = 0; rank < order.length; rank++) {
      order[rank].count[1] = rank;
      total += order[rank].count[0];
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
    Value[] order = fieldCounts.inByteOrder();
    if (ranked(order) != fieldCounts.eventsWith) {
      return false; // an event with several values
    }
    int[] codes = new int[events];
    for (int e = 0; e < codes.length; e++) {
      int[] value = fieldCounts.valueOf[e];
      if (value == null && TextMentions.mayGive(block.get(e).raw(), name)) {
        return false; // "no value" would hide what the text may give: the payload keeps it
      }
      codes[e] = value == null ? order.length : value[1];
    }
    BlockValueCodes.writePartial(document, name, codes, codes.length, order.length);
    String values = BlockValueCounts.VALUES + name;
    for (Value value : order) {
      document.add(new SortedSetDocValuesField(values, value.bytes));
    }
    return true;
  }

  /**
   * One field's values in a block: each distinct value's {count, index in the block's order}, how
   * many events have a value, and each event's (last) value's pair — its only one when the block
   * gets codes, so a code is read without looking the value up again.
   */
  static final class FieldCounts {
    private final Map<String, int[]> counts = new HashMap<>();
    private final int[][] valueOf;
    private int eventsWith;
    // the last value added and its pair: a block's host, source and sourcetype, and often an
    // index-time field's value (a status, a method), repeat from one event to the next
    private String last;
    private int[] lastCount;

    private FieldCounts(int events) {
      valueOf = new int[events][];
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
      int[] count;
      boolean added = false;
      if (value.equals(last)) {
        count = lastCount;
      } else {
        count = counts.get(value);
        if (count == null) {
          count = new int[2]; // count, then index
          counts.put(value, count);
          added = true;
        }
        last = value;
        lastCount = count;
      }
      count[0]++;
      valueOf[event] = count;
      return added;
    }

    /** A default field's value: counted when not empty (an event always has the field). */
    void addDefault(String value, int event) {
      if (value != null && !value.isEmpty()) {
        eventsWith++;
        add(value, event);
      }
    }

    /**
     * The distinct values in UTF-8 byte order. Where no value has a character from U+D800 up,
     * UTF-16 order is that order and {@code getBytes} the bytes, so the strings are compared as
     * they are (no {@link BytesRef} compare) and encoded by the JDK's intrinsic.
     */
    private Value[] inByteOrder() {
      Value[] order = new Value[counts.size()];
      boolean plain = true;
      int i = 0;
      for (Map.Entry<String, int[]> value : counts.entrySet()) {
        order[i++] = new Value(value.getKey(), value.getValue());
        plain &= belowSurrogates(value.getKey());
      }
      if (plain) {
        Arrays.sort(order, (a, b) -> a.text.compareTo(b.text));
        for (Value value : order) {
          value.bytes = new BytesRef(value.text.getBytes(StandardCharsets.UTF_8));
        }
      } else {
        for (Value value : order) {
          value.bytes = new BytesRef(value.text);
        }
        Arrays.sort(order, (a, b) -> a.bytes.compareTo(b.bytes));
      }
      return order;
    }

    private static boolean belowSurrogates(String text) {
      for (int i = 0; i < text.length(); i++) {
        if (text.charAt(i) >= Character.MIN_SURROGATE) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * A distinct value, its UTF-8 bytes once ordered, and its {count, index in the block's order}.
   */
  private static final class Value {
    final String text;
    final int[] count;
    BytesRef bytes;

    Value(String text, int[] count) {
      this.text = text;
      this.count = count;
    }
  }
}
