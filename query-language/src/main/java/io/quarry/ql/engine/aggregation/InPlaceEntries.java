package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.ql.exec.MemoryTracker;

/**
 * Which entries of a shared dictionary an {@link EntryPartial} has met since it keeps its states in
 * place — a group per dictionary entry, the group number the entry's: a row's states are found by
 * its ordinal, not through an entry → group map. With 200,000 groups that map (an int per entry,
 * 800 KB) was a cache miss per row before the states' own; the entries met are a bit each here (25
 * KB), set per row, and read once at the hand-over. The partial moves in place once it has met a
 * {@link #SHARE}th of the entries ({@link #worth}): the states of every entry then cost at most
 * that many times the states met. The bits are charged to {@code arrays} while held.
 */
final class InPlaceEntries {
  /** The states move in place once this many times fewer entries than the dictionary's were met. */
  static final int SHARE = 4;

  private final long[] met;
  private final MemoryTracker arrays;
  private final long bytes;

  InPlaceEntries(int entries, MemoryTracker arrays) {
    long[] bits = new long[(entries + 63) >>> 6];
    this.bytes = (long) Long.BYTES * bits.length;
    arrays.add(bytes);
    this.met = bits;
    this.arrays = arrays;
  }

  /** Whether a partial that met {@code met} of a dictionary's {@code entries} should move. */
  static boolean worth(int met, int entries) {
    return (long) met * SHARE >= entries;
  }

  /** Marks {@code entry} met. */
  void meet(int entry) {
    met[entry >>> 6] |= 1L << entry;
  }

  /** Each position's group (its entry; -1 without a value) into {@code groups}, its entry met. */
  void groups(BytesBlock key, int count, int[] groups) {
    long[] met = this.met;
    for (int p = 0; p < count; p++) {
      if (key.isNull(p)) {
        groups[p] = -1;
      } else {
        int entry = key.getOrdinal(p);
        groups[p] = entry;
        met[entry >>> 6] |= 1L << entry;
      }
    }
  }

  /** The entries met, ascending. */
  int[] met() {
    int count = 0;
    for (long word : met) {
      count += Long.bitCount(word);
    }
    int[] entries = new int[count];
    int n = 0;
    for (int w = 0; w < met.length; w++) {
      for (long word = met[w]; word != 0; word &= word - 1) {
        entries[n++] = (w << 6) + Long.numberOfTrailingZeros(word);
      }
    }
    return entries;
  }

  /** Gives the bits' charge back. */
  void release() {
    arrays.add(-bytes);
  }
}
