package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.MemoryLimitExceededException;
import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.exec.MemoryTracker;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The groups of one by-field's pages while they refer to one dictionary shared beyond a page (a
 * segment's whole dictionary, {@code server.search.SegmentDictionaryBlocks}: each position a
 * segment ordinal): their states kept here by dictionary entry — a group per entry met, numbered in
 * the order met, no key hashed per page or per entry — and handed to the aggregation's own groups
 * ({@link #flushInto}) only when the pages move to another dictionary or the aggregation is read or
 * merged: then each entry's text is looked up in its keys once, the entries together ({@link
 * BytesKeyHash#entryIds}: hashed first, every first slot read before the lookups, so their cache
 * misses overlap), and each function merges the entries' states in one loop — unless the entries'
 * texts ascend in entry order (a segment's dictionary is sorted by bytes) and the aggregation holds
 * no key or few: then no entry is hashed ({@link SortedEntries#handWhole}, {@link
 * SortedEntries#handBeside}) and the entry order is left as the answer's likely order. A search
 * thread reads a segment's events into small state arrays of the segment's groups instead of the
 * partial's, whose tens of megabytes are touched once per group and segment, not once per event.
 * Once a quarter of the entries were met the states move in place, a group per entry ({@link
 * InPlaceEntries}: no entry → group map read per row), and are gathered back into groups numbered
 * from 0 at a hand-over or merge.
 *
 * <p>Memory, charged to the search's: the states, charged to {@code charge} (a sibling of the
 * aggregation's tracker) and given back at the flush; the entry map (an int per dictionary entry)
 * and the group → entry map, charged to {@code arrays} while allocated (they are kept for the next
 * dictionary, so until {@link #release}); and the dictionary itself, which this holds until the
 * flush, possibly after the scan let it go: held as shared ({@link MemoryTracker#holdShared}, by
 * identity and {@link BytesBlock#ramBytesUsed}, as the scan's {@code SegmentDictionaryBlocks} and
 * {@code BlockFactory} hold it), so one block is charged once per search however many partials and
 * slices hold it, and given back by the last. A dictionary whose charge the limit refuses is not
 * taken ({@link #take} false): its pages group by text as before. Not thread-safe; one per {@link
 * HashAggregationOperator}.
 */
final class EntryPartial {
  /** Entries whose keys are looked up together at a flush. */
  static final int LOOKUP = 1024;

  /** The groups {@code entryOf} has room for at first. */
  private static final int FIRST_GROUPS = 16;

  private final List<Aggregation> aggregations;
  private MemoryTracker charge; // the states (a sibling's, once moved in place: InPlaceEntries)
  private final MemoryTracker arrays; // groupOf and entryOf, while allocated
  private final long bytesPerGroup;
  private BytesBlock dictionary; // the dictionary the groups are entries of; null: none
  private int[] groupOf = new int[0]; // entry → its group + 1 (0: not met)
  private int[] entryOf = new int[FIRST_GROUPS]; // group → its entry
  private int size;
  private int grownTo;
  private GroupingFunction[] functions;
  private long flushed; // groups handed over so far
  private InPlaceEntries inPlace; // the states by entry, once enough entries were met; else null
  private boolean stayInOrder; // the limit refused the states by entry for this dictionary

  EntryPartial(List<Aggregation> aggregations, MemoryTracker charge, long bytesPerGroup) {
    this.aggregations = aggregations;
    this.charge = charge;
    this.arrays = charge.sibling();
    this.bytesPerGroup = bytesPerGroup;
  }

  /**
   * The dictionary of the page's by-field (its only one) when it is single-valued and refers to a
   * dictionary of more entries than the page has positions and than {@code smallest}: a dictionary
   * shared beyond one page, the kind this groups by entry; else null.
   */
  static BytesBlock sharedDictionary(Block[] keys, int count, int smallest) {
    if (keys.length != 1
        || !(keys[0] instanceof BytesBlock bytes)
        || bytes.dictionary() == null
        || bytes.mayHaveMultivaluedFields()) {
      return null;
    }
    BytesBlock dictionary = bytes.dictionary();
    int entries = dictionary.positionCount();
    return entries > count && entries > smallest ? dictionary : null;
  }

  /** The dictionary the groups here are entries of (null: none). */
  BytesBlock dictionary() {
    return dictionary;
  }

  /**
   * Takes {@code dictionary} for the pages to come (nothing held here: flushed before); false, and
   * nothing taken, when the search's limit refuses its charge.
   */
  boolean take(BytesBlock dictionary) {
    int entries = dictionary.positionCount();
    try {
      if (groupOf.length < entries) {
        if (groupOf.length == 0) {
          arrays.add((long) Integer.BYTES * FIRST_GROUPS); // entryOf, kept with groupOf
        }
        arrays.add((long) Integer.BYTES * (entries - groupOf.length));
        groupOf = new int[entries];
      }
      charge.holdShared(dictionary, dictionary.ramBytesUsed());
    } catch (MemoryLimitExceededException refused) {
      return false;
    }
    this.dictionary = dictionary;
    this.functions = GroupingFunction.all(aggregations);
    return true;
  }

  /**
   * Adds a page whose by-field {@code key} refers to the dictionary taken: each position's group
   * (by its entry; -1 without a value) into {@code groups}, then every function's values. Returns
   * whether the page went to states kept in place, a group per entry ({@link InPlaceEntries}).
   */
  boolean addPage(BytesBlock key, int count, int[] groups, Block[] values, long[] times) {
    if (inPlace != null) {
      inPlace.groups(key, count, groups);
      long grown = 0;
      for (int f = 0; f < functions.length; f++) {
        grown += functions[f].addPage(groups, count, values[f], times);
      }
      charge.add(grown);
      return true;
    }
    for (int p = 0; p < count; p++) {
      if (key.isNull(p)) {
        groups[p] = -1;
        continue;
      }
      int entry = key.getOrdinal(p);
      int group = groupOf[entry] - 1;
      if (group < 0) {
        group = size++;
        groupOf[entry] = group + 1;
        if (group == entryOf.length) {
          growEntryOf();
        }
        entryOf[group] = entry;
      }
      groups[p] = group;
    }
    long grown = grown();
    for (int f = 0; f < functions.length; f++) {
      grown += functions[f].addPage(groups, count, values[f], times);
    }
    charge.add(grown);
    if (!stayInOrder && InPlaceEntries.worth(size, dictionary.positionCount())) {
      moveInPlace();
    }
    return false;
  }

  /**
   * Moves the states to one group per dictionary entry, the group its entry ({@link
   * InPlaceEntries}): the pages to come find a row's states by its ordinal, no entry → group map
   * read per row. Charged to a new sibling before the states met so far move (merged into theirs
   * entry by entry) and the old are given back; refused by the limit, the groups stay as met.
   */
  private void moveInPlace() {
    int entries = dictionary.positionCount();
    MemoryTracker moved = charge.sibling();
    try {
      moved.add(bytesPerGroup * entries);
      inPlace = new InPlaceEntries(entries, arrays);
    } catch (MemoryLimitExceededException refused) {
      moved.release();
      stayInOrder = true;
      return;
    }
    GroupingFunction[] byEntry = GroupingFunction.all(aggregations);
    long grown = 0;
    for (int f = 0; f < byEntry.length; f++) {
      byEntry[f].grow(entries);
      grown += byEntry[f].mergePage(entryOf, size, functions[f], 0);
    }
    for (int group = 0; group < size; group++) {
      inPlace.meet(entryOf[group]);
      groupOf[entryOf[group]] = 0;
    }
    charge.release(); // the dictionary stays held: shared, by the search's account
    charge = moved;
    moved.add(grown);
    functions = byEntry;
    size = 0;
    grownTo = 0;
  }

  /**
   * Moves the states by entry back to groups numbered from 0 — the entries met, in entry order — so
   * the hand-over and merges read them as met groups ({@link #flushInto}, {@link #mergeFrom});
   * charged as {@link #moveInPlace} is. Every entry met: the states stay where they are.
   */
  private void compact() {
    int[] met = inPlace.met();
    int entries = dictionary.positionCount();
    while (entryOf.length < met.length) {
      growEntryOf();
    }
    if (met.length == entries) {
      System.arraycopy(met, 0, entryOf, 0, met.length); // group = entry
    } else {
      GroupingFunction[] dense = GroupingFunction.all(aggregations);
      long grown = bytesPerGroup * met.length;
      for (int f = 0; f < dense.length; f++) {
        dense[f].grow(met.length);
        grown += dense[f].mergeGathered(met.length, functions[f], met);
      }
      charge.release(); // fewer states than were charged: given back first
      charge = charge.sibling();
      charge.add(grown);
      functions = dense;
      System.arraycopy(met, 0, entryOf, 0, met.length);
    }
    size = met.length;
    grownTo = met.length;
    for (int group = 0; group < size; group++) {
      groupOf[entryOf[group]] = group + 1;
    }
    inPlace.release();
    inPlace = null;
  }

  /**
   * Adds the groups of {@code other} (holding the same dictionary: another search thread's partial
   * over the same segment) by entry, no key looked up, and empties it (its charge given back).
   */
  void mergeFrom(EntryPartial other) {
    if (other.dictionary != dictionary) {
      throw new IllegalArgumentException("groups of another dictionary");
    }
    if (inPlace != null) {
      compact();
    }
    if (other.inPlace != null) {
      other.compact();
    }
    int[] ids = new int[Math.min(Math.max(other.size, 1), LOOKUP)];
    long grown = 0;
    for (int from = 0; from < other.size; from += LOOKUP) {
      int count = Math.min(LOOKUP, other.size - from);
      for (int i = 0; i < count; i++) {
        int entry = other.entryOf[from + i];
        int group = groupOf[entry] - 1;
        if (group < 0) {
          group = size++;
          groupOf[entry] = group + 1;
          if (group == entryOf.length) {
            growEntryOf();
          }
          entryOf[group] = entry;
        }
        ids[i] = group;
      }
      grown += grown();
      for (int f = 0; f < functions.length; f++) {
        grown += functions[f].mergePage(ids, count, other.functions[f], from);
      }
    }
    charge.add(grown);
    other.release();
  }

  /** Doubles the room in the group → entry map, charged (grown as groups are met, kept). */
  private void growEntryOf() {
    arrays.add((long) Integer.BYTES * entryOf.length);
    entryOf = Arrays.copyOf(entryOf, entryOf.length * 2);
  }

  /** Makes room in the functions for the groups made since; returns the bytes they take. */
  private long grown() {
    if (size == grownTo) {
      return 0;
    }
    long bytes = bytesPerGroup * (size - grownTo);
    for (GroupingFunction function : functions) {
      function.grow(size);
    }
    grownTo = size;
    return bytes;
  }

  /**
   * Hands every group to {@code keys} and {@code into} (the aggregation's; {@code grow} makes room
   * in {@code into} for the groups {@code keys} holds now and returns the bytes they take) and lets
   * the dictionary go, its charge given back.
   *
   * @return the bytes the aggregation grew (its new groups and states)
   */
  long flushInto(GroupKeys keys, GroupingFunction[] into, LongSupplier grow) {
    if (dictionary == null) {
      return 0;
    }
    if (inPlace != null) {
      compact();
    }
    if ((long) keys.size() * FEW_KEYS <= size) {
      // the entries met, if their texts ascend (so are distinct): handed over unhashed
      int[] order = SortedEntries.order(dictionary, groupOf, entryOf, size);
      if (SortedEntries.ascending(dictionary, entryOf, order)) {
        long grown =
            keys.isEmpty()
                ? SortedEntries.handWhole(
                    keys, into, grow, order, dictionary, entryOf, size, functions, beyondGroups())
                : SortedEntries.handBeside(
                    keys, into, grow, order, dictionary, entryOf, size, functions);
        handedOver();
        return grown;
      }
    }
    long grown = 0;
    int[] ids = new int[Math.min(Math.max(size, 1), LOOKUP)];
    for (int from = 0; from < size; from += LOOKUP) {
      int count = Math.min(LOOKUP, size - from);
      keys.entryIds(dictionary, entryOf, from, count, ids);
      grown += grow.getAsLong();
      for (int f = 0; f < into.length; f++) {
        grown += into[f].mergePage(ids, count, functions[f], from);
      }
    }
    handedOver();
    return grown;
  }

  /** What the states here hold beyond their groups' arrays (counted here so far). */
  private long beyondGroups() {
    return charge.used() - bytesPerGroup * grownTo;
  }

  /**
   * Empties this partial once its groups are handed over: every entry's group forgotten, the groups
   * counted as flushed, the dictionary let go.
   */
  private void handedOver() {
    for (int group = 0; group < size; group++) {
      groupOf[entryOf[group]] = 0;
    }
    flushed += size;
    size = 0;
    grownTo = 0;
    letGo();
  }

  /** Keys held this many times fewer than the groups here are found among the entries. */
  private static final int FEW_KEYS = 8;

  /** Lets the dictionary and the states go, their charge given back; the maps stay, charged. */
  private void letGo() {
    charge.letGoShared(dictionary, dictionary.ramBytesUsed());
    dictionary = null;
    functions = null;
    stayInOrder = false;
    charge.release();
  }

  /** The groups handed to the aggregation so far (each entry met once per dictionary taken). */
  long flushed() {
    return flushed;
  }

  /**
   * Gives back what is charged, dropping any groups not handed over and the maps (the aggregation
   * closed, or its groups merged into another's).
   */
  void release() {
    if (inPlace != null) {
      inPlace.release();
      inPlace = null;
    }
    if (dictionary != null) {
      size = 0;
      grownTo = 0;
      letGo();
    }
    charge.release();
    groupOf = new int[0];
    entryOf = new int[FIRST_GROUPS];
    arrays.release();
  }
}
