package io.quarry.server.search;

import java.util.Arrays;

/**
 * Page entries of the large segment ordinals an {@link OrdinalColumn} meets (those past its direct
 * array): an open-addressing table of primitive ordinals and entries, linear probing, no boxing — a
 * {@code HashMap<Long, Integer>} there was half of {@code OrdinalColumn.append}'s CPU for a field
 * of 195K values (session 34, {@code sessions_range_indexed}). Cleared when the column's dictionary
 * is dropped; never shrinks.
 */
final class LargeOrdinalEntries {
  private static final long EMPTY = -1; // ordinals are never negative

  private long[] ordinals = new long[64];
  private int[] entries = new int[64];
  private int size;

  LargeOrdinalEntries() {
    Arrays.fill(ordinals, EMPTY);
  }

  /** The entry of {@code ordinal}, or -1 when it has none. */
  int get(long ordinal) {
    int mask = ordinals.length - 1;
    for (int slot = slot(ordinal, mask); ; slot = (slot + 1) & mask) {
      long at = ordinals[slot];
      if (at == ordinal) {
        return entries[slot];
      }
      if (at == EMPTY) {
        return -1;
      }
    }
  }

  /** Gives {@code ordinal} (not in the table) the entry {@code entry}. */
  void put(long ordinal, int entry) {
    if (2 * (size + 1) > ordinals.length) {
      grow();
    }
    insert(ordinal, entry);
    size++;
  }

  void clear() {
    if (size > 0) {
      Arrays.fill(ordinals, EMPTY);
      size = 0;
    }
  }

  private void insert(long ordinal, int entry) {
    int mask = ordinals.length - 1;
    int slot = slot(ordinal, mask);
    while (ordinals[slot] != EMPTY) {
      slot = (slot + 1) & mask;
    }
    ordinals[slot] = ordinal;
    entries[slot] = entry;
  }

  private void grow() {
    long[] oldOrdinals = ordinals;
    int[] oldEntries = entries;
    ordinals = new long[oldOrdinals.length * 2];
    entries = new int[oldEntries.length * 2];
    Arrays.fill(ordinals, EMPTY);
    for (int i = 0; i < oldOrdinals.length; i++) {
      if (oldOrdinals[i] != EMPTY) {
        insert(oldOrdinals[i], oldEntries[i]);
      }
    }
  }

  private static int slot(long ordinal, int mask) {
    long h = ordinal * 0x9E3779B97F4A7C15L;
    return (int) (h >>> 40) & mask;
  }
}
