package io.quarry.ql.engine.aggregation;

import io.quarry.ql.engine.LongPages;

/**
 * One open-addressing table of a {@link BytesKeyHash}: slots of {@link #SLOT} longs — {@code (hash
 * << 32) | (id + 1)} (0: an empty slot), the key's first 16 bytes as two little-endian words (zero
 * past its end), and its length — probed linearly from {@code hash & mask}, kept at most half full.
 * A key of up to 16 bytes is found and compared in its slot alone; a longer one asks its hash to
 * compare the rest ({@link BytesKeyHash#sameTail}). The hash holds one table, or one per partition
 * of the keys once they are many, so that partitions can be merged apart ({@link KeyMerge}).
 *
 * <p>Paged ({@link LongPages}): never an object G1 allocates as humongous; it doubles in place
 * ({@link #rehash}). A slot never crosses a page. Not thread-safe.
 */
final class KeyTable {
  static final int SLOT = 4; // longs per slot

  private final LongPages table;
  private int size; // occupied slots

  /** An empty table of at least {@code slots} slots (a power of two). */
  KeyTable(int slots) {
    table = new LongPages(SLOT * Math.max(64, Integer.highestOneBit(slots - 1) << 1));
  }

  /** The occupied slots. */
  int size() {
    return size;
  }

  /** The slots (a power of two). */
  int slots() {
    return table.capacity() / SLOT;
  }

  /** Slot {@code slot}'s first long: {@code (hash << 32) | (id + 1)}, or 0 when empty. */
  long entry(int slot) {
    return table.get(slot * SLOT);
  }

  /** Slot {@code slot}'s key word {@code word} (0: bytes 0–7, 1: bytes 8–15). */
  long word(int slot, int word) {
    return table.get(slot * SLOT + 1 + word);
  }

  /** Slot {@code slot}'s key length. */
  int length(int slot) {
    return (int) table.get(slot * SLOT + 3);
  }

  /**
   * Reads the first slot of {@code hash}, so that several lookups' cache misses are in flight
   * together (see {@link BytesKeyHash#ids}); returns what it read.
   */
  long touch(int hash) {
    return table.get((hash & (slots() - 1)) * SLOT);
  }

  /**
   * Where a key is ({@code >= 0}), or {@code -slot - 1} for the empty slot where it would go;
   * {@code bytes[offset, + length)} are its bytes (read only past the first 16, by {@code keys}).
   */
  int slot(
      int hash, long first, long second, int length, BytesKeyHash keys, byte[] bytes, int offset) {
    int mask = slots() - 1;
    for (int i = hash & mask; ; i = (i + 1) & mask) {
      int at = i * SLOT;
      long[] page = table.page(at);
      int in = LongPages.offset(at);
      long entry = page[in];
      if (entry == 0) {
        return -i - 1;
      }
      if ((int) (entry >>> 32) == hash
          && page[in + 1] == first
          && page[in + 2] == second
          && page[in + 3] == length
          && (length <= BytesKeyHash.INLINE || keys.sameTail(entry, bytes, offset, length))) {
        return i;
      }
    }
  }

  /**
   * Fills the empty slot {@code slot} (from {@link #slot}) and doubles the table when it is half
   * full: a slot found before then is stale.
   */
  void put(int slot, long entry, long first, long second, int length) {
    set(slot, entry, first, second, length);
    if (++size * 2 > slots()) {
      rehash(2 * slots());
    }
  }

  /** Rewrites the entry of an occupied slot (its hash and id). */
  void setEntry(int slot, long entry) {
    table.set(slot * SLOT, entry);
  }

  /** Grows the table so that {@code entries} fit at most half full: no rehash below that. */
  void reserve(int entries) {
    int slots = slots();
    while (entries * 2L > slots) {
      slots *= 2;
    }
    if (slots > slots()) {
      rehash(slots);
    }
  }

  /**
   * Places here every entry of {@code from} in partition {@code part} of {@code 1 << bits} (by its
   * hash's top bits), each from its home: a table split into partitions.
   */
  void placeAll(KeyTable from, int part, int bits) {
    for (int i = 0; i < from.slots(); i++) {
      long entry = from.entry(i);
      if (entry != 0 && BytesKeyHash.part((int) (entry >>> 32), bits) == part) {
        place(entry, from.word(i, 0), from.word(i, 1), from.length(i));
        size++;
      }
    }
    reserve(size);
  }

  /**
   * Grows the table in place to {@code slots}: its pages stay and the new upper part is appended
   * ({@link LongPages#grow}), so growing allocates and zeroes only what it adds. Each entry of the
   * old part, in slot order, is taken out and placed again from its home under the new mask — where
   * it was, nearer its home, or in the upper part. Placed this way, an entry's probe path crosses
   * only entries already placed (which never move again) up to its own old slot, now free; except a
   * path that wraps past the table's end into the run of entries at its start, which may have
   * wrapped there from the old end: that run is taken out first and placed last.
   */
  private void rehash(int slots) {
    int oldSlots = slots();
    table.grow(SLOT * slots);
    int run = 0; // the occupied slots at the start (there is an empty one: the load is 1/2)
    while (table.get(run * SLOT) != 0) {
      run++;
    }
    long[] held = new long[run * SLOT];
    for (int i = 0; i < run; i++) {
      int at = i * SLOT;
      System.arraycopy(table.page(at), LongPages.offset(at), held, at, SLOT);
      table.set(at, 0);
    }
    for (int i = run; i < oldSlots; i++) {
      int at = i * SLOT;
      long[] page = table.page(at);
      int in = LongPages.offset(at);
      long entry = page[in];
      if (entry != 0) {
        page[in] = 0;
        place(entry, page[in + 1], page[in + 2], (int) page[in + 3]);
      }
    }
    for (int at = 0; at < held.length; at += SLOT) {
      place(held[at], held[at + 1], held[at + 2], (int) held[at + 3]);
    }
  }

  /** Writes an entry into the first free slot from its home (no count: a move, or a split). */
  private void place(long entry, long first, long second, int length) {
    int mask = slots() - 1;
    int i = (int) (entry >>> 32) & mask;
    while (table.get(i * SLOT) != 0) {
      i = (i + 1) & mask;
    }
    set(i, entry, first, second, length);
  }

  private void set(int slot, long entry, long first, long second, int length) {
    int at = slot * SLOT;
    long[] page = table.page(at);
    int in = LongPages.offset(at);
    page[in] = entry;
    page[in + 1] = first;
    page[in + 2] = second;
    page[in + 3] = length;
  }
}
