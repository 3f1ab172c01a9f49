package io.quarry.ql.engine.aggregation;

import io.quarry.ql.engine.LongPages;

/**
 * The slots of {@link BytesKeyHash}'s open-addressing table, {@link #SLOT} longs each ({@code (hash
 * << 32) | (id + 1)}, 0 for an empty slot; the key's first 16 bytes as two words; its length), and
 * how the table grows: doubled in place, every entry placed again from its home under the new mask.
 * Moved out of {@link BytesKeyHash}, which keeps the lookups.
 */
final class KeySlots {
  /** Longs per table slot. */
  static final int SLOT = 4;

  private KeySlots() {}

  /**
   * Doubles the table in place: its pages stay and the new upper half is appended ({@link
   * LongPages#grow}), so growing allocates and zeroes only the half it adds and copies nothing to a
   * second table (with 200,000 groups a fifth of the lookups' time was making and zeroing whole new
   * tables). Each entry of the old half, in slot order, is taken out and placed again from its home
   * under the new mask — where it was, nearer its home, or in the upper half. Placed this way, an
   * entry's probe path crosses only entries already placed (which never move again) up to its own
   * old slot, now free; except a path that wraps past the table's end into the run of entries at
   * its start, which may have wrapped there from the old end: that run is taken out first and
   * placed last.
   */
  static void rehash(LongPages table) {
    int oldSlots = table.capacity() / SLOT;
    table.grow(2 * table.capacity());
    int mask = table.capacity() / SLOT - 1;
    int run = 0; // the occupied slots at the start (there is an empty one: the load is 1/2)
    while (table.get(run * SLOT) != 0) {
      run++;
    }
    long[] held = new long[run * SLOT];
    for (int i = 0; i < run; i++) {
      int slot = i * SLOT;
      System.arraycopy(table.page(slot), LongPages.offset(slot), held, slot, SLOT);
      table.set(slot, 0);
    }
    for (int i = run; i < oldSlots; i++) {
      int slot = i * SLOT;
      long[] page = table.page(slot);
      int at = LongPages.offset(slot);
      long entry = page[at];
      if (entry != 0) {
        page[at] = 0;
        place(table, entry, page[at + 1], page[at + 2], page[at + 3], mask);
      }
    }
    for (int slot = 0; slot < held.length; slot += SLOT) {
      place(table, held[slot], held[slot + 1], held[slot + 2], held[slot + 3], mask);
    }
  }

  /** Writes a slot's four longs into the first free slot from the entry's home. */
  static void place(LongPages table, long entry, long first, long second, long length, int mask) {
    int i = (int) (entry >>> 32) & mask;
    while (table.get(i * SLOT) != 0) {
      i = (i + 1) & mask;
    }
    int slot = i * SLOT;
    long[] page = table.page(slot);
    int at = LongPages.offset(slot);
    page[at] = entry;
    page[at + 1] = first;
    page[at + 2] = second;
    page[at + 3] = length;
  }
}
