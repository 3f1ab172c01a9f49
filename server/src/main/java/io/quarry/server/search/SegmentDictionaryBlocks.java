package io.quarry.server.search;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.MemoryLimitExceededException;
import io.quarry.ql.exec.MemoryTracker;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

/**
 * The whole keyword dictionaries of the segments one search scans, as string blocks a column of
 * segment ordinals refers to ({@link OrdinalColumn} grouped by ordinal, {@link
 * PageShape#byOrdinal}): one block per decoded dictionary (the texts array the scan's slices of a
 * segment share, {@code codecs.store.SegmentDictionaries}), made by the first slice that asks and
 * shared by the others, so every page of the segment's slices holds the same dictionary and the
 * aggregation keeps its groups by entry ({@code EntryPartial}: the threads' partials of one segment
 * merge by entry, each entry's text hashed once, when the groups are handed over), not by text per
 * event. Each block and the decoded texts behind it are charged to the search's memory ({@code
 * memory}) while a slice holds it ({@link #hold}): the last slice to let it go ({@link #letGo}: its
 * scan moved to another segment, or it ended) gives its charge back, so what is charged is the
 * dictionaries of the segments being read now, not the sum over every segment. A block let go is
 * remembered weakly: a slice of the same segment that starts while the aggregation's partials still
 * hold it gets the same block back (a new one would make them hand their groups over by text before
 * the scan ends; the search's threads may both be between two slices of one segment). The block
 * itself is held as shared ({@link MemoryTracker#holdShared}): the aggregations' partials that keep
 * their groups by its entries hold it the same way, possibly after the slices let it go, until they
 * hand their groups over, so it is charged once per search however many slices and partials hold
 * it. A block is made only while it takes at most half of what the search's limit leaves free (the
 * rest stays for the aggregation's groups, which must fit: the block only saves time). A charge
 * refused (so, or over the search's limit) does not fail the search: {@link #hold} answers null and
 * that dictionary's pages keep their per-page dictionaries, as without the rule. Thread-safe;
 * dropped with the search.
 */
final class SegmentDictionaryBlocks {
  /** The heap a decoded text takes besides its bytes: the String, its array, the slot. */
  static final long TEXT_OVERHEAD_BYTES = 64;

  private final MemoryTracker memory;
  private final Map<String[], Held> blocks = new IdentityHashMap<>();
  private final Set<String[]> refused = Collections.newSetFromMap(new IdentityHashMap<>());
  private final LongAdder pages = new LongAdder(); // pages built on a whole dictionary

  /** A block, what it is charged, and how many slices hold it. */
  private static final class Held {
    final BytesBlock block;
    final MemoryTracker charge;
    int holders;

    Held(BytesBlock block, MemoryTracker charge) {
      this.block = block;
      this.charge = charge;
    }

    /** Gives back the texts' charge and this search's hold on the block. */
    void letGo(MemoryTracker memory) {
      charge.release();
      memory.letGoShared(block, block.ramBytesUsed());
    }
  }

  SegmentDictionaryBlocks(MemoryTracker memory) {
    this.memory = memory;
  }

  /**
   * The block of {@code texts} (a segment's whole dictionary by ordinal), made and charged on first
   * use, held by the caller until it {@link #letGo lets it go}; null when its charge was refused
   * (now or before, in this search): the caller goes on with per-page dictionaries.
   */
  synchronized BytesBlock hold(String[] texts) {
    Held held = blocks.get(texts);
    if (held == null) {
      if (refused.contains(texts)) {
        return null;
      }
      long textBytes = textBytes(texts);
      // the block and its texts (about twice textBytes) may take at most half of what is free:
      // the rest is the aggregation's groups', which must fit (this block only saves time); a
      // block let go but still alive ({@link #resting}) is held, and charged, by partials already:
      // taken again without that check
      java.lang.ref.WeakReference<BytesBlock> rest = resting.remove(texts);
      BytesBlock alive = rest == null ? null : rest.get();
      held =
          alive == null && 4 * textBytes > memory.free() ? null : charged(texts, textBytes, alive);
      if (held == null) {
        refused.add(texts);
        return null;
      }
      blocks.put(texts, held);
    }
    held.holders++;
    return held.block;
  }

  /**
   * The block of {@code texts} and its charge; null when the search's limit refused it. The block
   * the last slice let go is taken again while it is still alive ({@code alive}, from {@link
   * #resting}): an aggregation's partials that keep their groups by its entries still hold it
   * (charged, as shared), and a slice of the same segment given another block would make them hand
   * their groups over by text before the scan ends.
   */
  private Held charged(String[] texts, long textBytes, BytesBlock alive) {
    MemoryTracker charge = memory.sibling();
    try {
      charge.add(textBytes); // before the block is made: a refused one is never built
      BytesBlock block = alive;
      if (block == null) {
        BytesBlock.Builder builder = BytesBlock.builder(texts.length);
        for (String text : texts) {
          builder.append(text);
        }
        block = builder.build();
      } else {
        blocksTakenAgain.increment();
      }
      memory.holdShared(block, block.ramBytesUsed());
      return new Held(block, charge);
    } catch (MemoryLimitExceededException overLimit) {
      charge.release();
      return null;
    }
  }

  /**
   * The blocks every slice let go, by their texts, both weakly (an array's equality is its
   * identity): a block stays reachable only while something charged for it holds it — a partial
   * keeping groups by its entries ({@code EntryPartial}, held as shared) — and the texts while the
   * segment's dictionaries keep them, so remembering them here keeps nothing alive.
   */
  private final Map<String[], java.lang.ref.WeakReference<BytesBlock>> resting =
      new java.util.WeakHashMap<>();

  private final LongAdder blocksTakenAgain = new LongAdder();

  /**
   * What {@code texts} take on the heap, counted once per dictionary and search: a segment's slices
   * on the search's threads let its block go and take it again many times a scan (whenever every
   * holder is between two slices), and counting a 200,000-entry dictionary's texts again each time,
   * under this object's lock, cost ~2% of the search threads' CPU of the 10M {@code
   * sessions_range_indexed} and held the other thread's slice at its {@link #hold} meanwhile
   * (session 45's profile: 98 ms in 6 searches).
   */
  private long textBytes(String[] texts) {
    Long known = sizes.get(texts);
    if (known != null) {
      return known;
    }
    long bytes = 0;
    for (String text : texts) {
      bytes += TEXT_OVERHEAD_BYTES + text.length();
    }
    sizes.put(texts, bytes);
    return bytes;
  }

  /**
   * Each dictionary's {@link #textBytes}, weakly by its texts (an array's equality is identity).
   */
  private final Map<String[], Long> sizes = new java.util.WeakHashMap<>();

  /** One holder of {@code texts}' block is done with it; the last gives back its charge. */
  synchronized void letGo(String[] texts) {
    Held held = blocks.get(texts);
    if (held != null && --held.holders == 0) {
      blocks.remove(texts);
      held.letGo(memory);
      resting.put(texts, new java.lang.ref.WeakReference<>(held.block));
    }
  }

  /** The blocks taken again after every slice had let them go ({@link #charged}). */
  long blocksTakenAgain() {
    return blocksTakenAgain.sum();
  }

  /** Counts a page built on a whole dictionary (its positions segment ordinals). */
  void pageByOrdinal() {
    pages.increment();
  }

  /** The pages built on whole dictionaries so far. */
  long pages() {
    return pages.sum();
  }

  /** Gives back what the blocks still held were charged (a slice that failed let none go). */
  synchronized void release() {
    for (Held held : blocks.values()) {
      held.letGo(memory);
    }
    blocks.clear();
    resting.clear();
    sizes.clear();
  }
}
