package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.ByteSlice;
import io.quarry.plugin.api.data.BytesBlock;
import java.util.Arrays;

/**
 * The groups an {@link EntryPartial} keeps by dictionary entry, in the order of their entries: the
 * answer's likely order (a segment's dictionary is sorted by bytes), and, once checked that their
 * texts ascend strictly by bytes, where a key is among them — a binary search over the entries met,
 * no hash of the entries. Owns the hand-over of such entries' groups with no entry hashed: to an
 * aggregation without keys, whole ({@link #handWhole}), or to one that holds a few keys already
 * (the pages a scan read before the segment's dictionary was decoded whole; {@link #handBeside}).
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

  /**
   * How {@code EntryPartial.flushInto} hands its groups ({@code size} of them, group → entry in
   * {@code entryOf}, states in {@code functions}) to an aggregation without groups (the final one
   * at the end of a search whose partials all held this dictionary) while the entries' texts ascend
   * in entry order ({@code order}, checked: so they are distinct): the entries' texts become its
   * keys in group order, not hashed ({@link GroupKeys#appendEntries}: a lookup, if one ever
   * follows, hashes them), and the states become its functions' as they are, not merged; the groups
   * in entry order are left with the keys as their likely answer order ({@link
   * GroupKeys#likelyOrder(int[])}: a segment's dictionary is sorted by bytes, which {@link
   * GroupOrder} checks instead of sorting). Returns the bytes to charge to the aggregation: its
   * {@code grow} (keys and states per group), {@code beyondGroups} (what the states hold beyond
   * that, counted by the partial) and the order, an int per group. The caller empties its partial.
   */
  static long handWhole(
      GroupKeys keys,
      GroupingFunction[] into,
      java.util.function.LongSupplier grow,
      int[] order,
      BytesBlock dictionary,
      int[] entryOf,
      int size,
      GroupingFunction[] functions,
      long beyondGroups) {
    keys.appendEntries(dictionary, entryOf, 0, size);
    System.arraycopy(functions, 0, into, 0, into.length);
    long grown = grow.getAsLong() + beyondGroups + (long) Integer.BYTES * size;
    keys.likelyOrder(order);
    return grown;
  }

  /**
   * How {@code EntryPartial.flushInto} hands its groups ({@code size} of them, group → entry in
   * {@code entryOf}, states in {@code functions}) to an aggregation that holds a few keys already
   * ({@code keys}, at most an eighth of the groups: the pages a scan read before the segment's
   * dictionary was decoded whole) while the entries' texts ascend in entry order ({@code order},
   * checked): each of those keys is found among the entries by a binary search ({@link #find}), not
   * an entry hashed; the entries no key named become new keys, unhashed ({@link
   * GroupKeys#appendEntries}), and every group's states are merged into its key's as by the lookup
   * — the same merge, in the same order. When every key was an entry, the groups in entry order are
   * left as the likely answer order, as a hand-over whole does. The caller empties its partial.
   */
  static long handBeside(
      GroupKeys keys,
      GroupingFunction[] into,
      java.util.function.LongSupplier grow,
      int[] order,
      BytesBlock dictionary,
      int[] entryOf,
      int size,
      GroupingFunction[] functions) {
    int before = keys.size();
    int[] idOf = new int[size]; // group → its key's id
    Arrays.fill(idOf, -1);
    ByteSlice key = new ByteSlice();
    ByteSlice scratch = new ByteSlice();
    boolean everyKeyAnEntry = true;
    for (int id = 0; id < before; id++) {
      keys.keySlice(id, 0, key);
      int group = find(dictionary, entryOf, order, key, scratch);
      if (group >= 0) {
        idOf[group] = id;
      } else {
        everyKeyAnEntry = false;
      }
    }
    long grown = 0;
    int[] ids = new int[Math.min(size, EntryPartial.LOOKUP)];
    int[] fresh = new int[Math.min(size, EntryPartial.LOOKUP)];
    for (int from = 0; from < size; from += EntryPartial.LOOKUP) {
      int count = Math.min(EntryPartial.LOOKUP, size - from);
      int n = 0;
      int next = keys.size();
      for (int i = 0; i < count; i++) {
        if (idOf[from + i] < 0) {
          fresh[n++] = entryOf[from + i];
          idOf[from + i] = next++;
        }
        ids[i] = idOf[from + i];
      }
      keys.appendEntries(dictionary, fresh, 0, n);
      grown += grow.getAsLong();
      for (int f = 0; f < into.length; f++) {
        grown += into[f].mergePage(ids, count, functions[f], from);
      }
    }
    if (everyKeyAnEntry) {
      int[] likely = new int[size];
      for (int r = 0; r < size; r++) {
        likely[r] = idOf[order[r]];
      }
      keys.likelyOrder(likely);
      grown += (long) Integer.BYTES * size;
    }
    return grown;
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
