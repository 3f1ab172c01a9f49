package io.quarry.server.search;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.ql.exec.MemoryTracker;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The whole keyword dictionaries of the segments one search scans, as string blocks a column of
 * segment ordinals refers to ({@link OrdinalColumn} grouped by ordinal, {@link
 * PageShape#byOrdinal}): one block per decoded dictionary (the texts array the scan's slices of a
 * segment share, {@code codecs.store.SegmentDictionaries}), made by the first slice that asks and
 * shared by the others, so every page of the segment's slices holds the same dictionary and the
 * aggregation numbers its groups by entry once per dictionary ({@code EntryGroups}), not by text
 * per event. Each block and the decoded texts behind it are charged to the search's memory ({@code
 * memory}) when made: a search over its limit fails there ({@link
 * io.quarry.plugin.api.data.MemoryLimitExceededException}). Thread-safe; dropped with the search.
 */
final class SegmentDictionaryBlocks {
  /** The heap a decoded text takes besides its bytes: the String, its array, the slot. */
  static final long TEXT_OVERHEAD_BYTES = 64;

  private final MemoryTracker memory;
  private final Map<String[], BytesBlock> blocks = new IdentityHashMap<>();

  SegmentDictionaryBlocks(MemoryTracker memory) {
    this.memory = memory;
  }

  /** The block of {@code texts} (a segment's whole dictionary by ordinal), made on first use. */
  synchronized BytesBlock block(String[] texts) {
    BytesBlock block = blocks.get(texts);
    if (block == null) {
      BytesBlock.Builder builder = BytesBlock.builder(texts.length);
      long textBytes = 0;
      for (String text : texts) {
        builder.append(text);
        textBytes += TEXT_OVERHEAD_BYTES + text.length();
      }
      block = builder.build();
      memory.add(textBytes + block.ramBytesUsed()); // throws over the search's limit
      blocks.put(texts, block);
    }
    return block;
  }

  /** Gives back what the blocks were charged. */
  synchronized void release() {
    blocks.clear();
    memory.release();
  }
}
