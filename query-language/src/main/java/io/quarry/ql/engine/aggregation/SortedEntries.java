package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.ByteSlice;
import io.quarry.plugin.api.data.BytesBlock;
import java.util.Arrays;

/**
 * The groups an {@link EntryPartial} keeps by dictionary entry, in the order of their entries: the
 * answer's likely order (a segment's dictionary is sorted by bytes), and, once checked that their
 * texts ascend strictly by bytes, where a key is among them — a binary search over the entries met,
 * no hash of the entries: how the entries' groups are handed to an aggregation that holds a few
 * keys already (the pages a scan read before the segment's dictionary was decoded whole).
 */
final class SortedEntries {
  /** Met entries this many times fewer than the dictionary's are sorted, not found by a pass. */
  private static final int FEW_MET = 16;

  private SortedEntries() {}

  /**
   * The groups {@code [0, size)} in the order of their entries ({@code entryOf[group]}; {@code
   * groupOf[entry]} is the group + 1, 0 for an entry not met): from the entry map in one pass, or,
   * when few of a large dictionary's entries were met, by sorting the entries met.
   */
  static int[] order(BytesBlock dictionary, int[] groupOf, int[] entryOf, int size) {
    int[] order = new int[size];
    int entries = dictionary.positionCount();
    int r = 0;
    if ((long) size * FEW_MET < entries) {
      int[] met = Arrays.copyOf(entryOf, size);
      Arrays.sort(met);
      for (int entry : met) {
        order[r++] = groupOf[entry] - 1;
      }
    } else {
      for (int entry = 0; entry < entries; entry++) {
        int group = groupOf[entry] - 1;
        if (group >= 0) {
          order[r++] = group;
        }
      }
    }
    return order;
  }

  /** Whether the texts of the groups' entries in {@code order} ascend strictly by bytes. */
  static boolean ascending(BytesBlock dictionary, int[] entryOf, int[] order) {
    ByteSlice previous = new ByteSlice();
    ByteSlice next = new ByteSlice();
    for (int r = 0; r < order.length; r++) {
      dictionary.getBytes(entryOf[order[r]], next);
      if (r > 0 && compare(previous, next) >= 0) {
        return false;
      }
      ByteSlice swap = previous;
      previous = next;
      next = swap;
    }
    return true;
  }

  /**
   * The group whose entry's text is {@code key}, or -1: a binary search over {@code order}, whose
   * texts {@link #ascending ascend}; {@code scratch} is overwritten.
   */
  static int find(
      BytesBlock dictionary, int[] entryOf, int[] order, ByteSlice key, ByteSlice scratch) {
    int low = 0;
    int high = order.length - 1;
    while (low <= high) {
      int middle = (low + high) >>> 1;
      dictionary.getBytes(entryOf[order[middle]], scratch);
      int c = compare(scratch, key);
      if (c < 0) {
        low = middle + 1;
      } else if (c > 0) {
        high = middle - 1;
      } else {
        return order[middle];
      }
    }
    return -1;
  }

  private static int compare(ByteSlice a, ByteSlice b) {
    return Arrays.compareUnsigned(
        a.bytes(),
        a.offset(),
        a.offset() + a.length(),
        b.bytes(),
        b.offset(),
        b.offset() + b.length());
  }
}
