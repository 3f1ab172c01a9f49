package io.quarry.server.search;

import io.quarry.codecs.store.StoredEvent;
import io.quarry.plugin.api.data.BytesBlock;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * One page's column of a keyword index-time field built from the segment's ordinals ({@link
 * StoredEvent#keywordOrdinal}): a dictionary block whose dictionary holds the values of the
 * ordinals the page met, each ordinal's text looked up once per page, and per position its entry —
 * no value copied per event, and {@code stats … by} the column groups per entry ({@code
 * GroupKeys}). An event whose value has no ordinal (several values, none, a value a search-time
 * extraction gives, another segment) ends the page's ordinals: {@link #append} says so, and the
 * caller copies the positions so far into its plain builder ({@link #copyInto}) and goes on plain
 * until the page ends. Not thread-safe; one per column of an {@link EventPages}.
 */
final class OrdinalColumn {
  /** Ordinals below this find their page entry in an array, the others in a map. */
  private static final int DIRECT = 1 << 16;

  private final String field;
  private Object scope; // the ordinals' scope: one segment scan
  private int[] entryOf = new int[256]; // ordinal → its page entry + 1 (0: not met this page)
  private final Map<Long, Integer> entryOfLarge = new HashMap<>();
  private long[] ordinalOf = new long[16]; // page entry → its ordinal
  private BytesBlock.Builder dictionary;
  private int entries;
  private int[] positions; // each position's entry
  private int size;

  OrdinalColumn(String field, int pageSize) {
    this.field = field;
    this.positions = new int[Math.max(pageSize, 8)];
    this.dictionary = BytesBlock.builder(16);
  }

  /** The positions appended since the page began. */
  int positionCount() {
    return size;
  }

  /**
   * Appends the event's value by its ordinal; false (nothing appended) when it has none or its
   * scope is not the page's.
   */
  boolean append(StoredEvent event) {
    long ordinal = event.keywordOrdinal(field);
    if (ordinal < 0) {
      return false;
    }
    Object eventScope = event.keywordScope();
    if (eventScope != scope) {
      if (size > 0) {
        return false; // a page of two segments: plain from here
      }
      scope = eventScope;
    }
    int entry = entry(ordinal);
    if (entry < 0) {
      entry = entries++;
      dictionary.append(event.keywordText(field, ordinal));
      remember(ordinal, entry);
    }
    if (size == positions.length) {
      positions = Arrays.copyOf(positions, size * 2);
    }
    positions[size++] = entry;
    return true;
  }

  private int entry(long ordinal) {
    if (ordinal < DIRECT) {
      return ordinal < entryOf.length ? entryOf[(int) ordinal] - 1 : -1;
    }
    Integer entry = entryOfLarge.get(ordinal);
    return entry == null ? -1 : entry;
  }

  private void remember(long ordinal, int entry) {
    if (ordinal < DIRECT) {
      if (ordinal >= entryOf.length) {
        entryOf = Arrays.copyOf(entryOf, (int) Math.min(DIRECT, Long.highestOneBit(ordinal) << 1));
      }
      entryOf[(int) ordinal] = entry + 1;
    } else {
      entryOfLarge.put(ordinal, entry);
    }
    if (entry == ordinalOf.length) {
      ordinalOf = Arrays.copyOf(ordinalOf, entry * 2);
    }
    ordinalOf[entry] = ordinal;
  }

  /** Appends the positions so far to {@code plain}, as values; this column is empty after. */
  void copyInto(BytesBlock.Builder plain) {
    BytesBlock entries = dictionary.build();
    io.quarry.plugin.api.data.ByteSlice slice = new io.quarry.plugin.api.data.ByteSlice();
    for (int p = 0; p < size; p++) {
      entries.getBytes(positions[p], slice);
      plain.append(slice.bytes(), slice.offset(), slice.length());
    }
    reset();
  }

  /**
   * The page's block (a constant when every position holds the same value), and this column empty
   * for the next page.
   */
  BytesBlock build() {
    BytesBlock entries = dictionary.build();
    BytesBlock block;
    if (entries.positionCount() == 1) {
      block = BytesBlock.constant(entries.getStringValue(0), size);
    } else {
      BytesBlock.OrdinalBuilder builder = BytesBlock.ordinalBuilder(entries, size);
      for (int p = 0; p < size; p++) {
        builder.appendOrdinal(positions[p]);
      }
      block = builder.build();
    }
    reset();
    return block;
  }

  private void reset() {
    for (int e = 0; e < entries; e++) {
      long ordinal = ordinalOf[e];
      if (ordinal < DIRECT) {
        entryOf[(int) ordinal] = 0;
      }
    }
    entryOfLarge.clear();
    entries = 0;
    size = 0;
    dictionary = BytesBlock.builder(16);
  }
}
