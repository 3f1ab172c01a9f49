package io.quarry.server.search;

import io.quarry.codecs.store.TextRegion;
import io.quarry.server.sourcetype.KeyPlaces;

/**
 * Which blocks' texts an {@link EventColumn} answers from a key's {@link KeyPlaces} (one pass over
 * the block) instead of scanning each text: the last {@value #SLOTS} blocks (regions, by identity)
 * asked about, each with its own places, so a time-ordered scan interleaving overlapping segments
 * in runs takes one pass per block, not one per run. A block's pass is taken once {@value
 * #AFTER_TEXTS} of its texts were asked and they hold at least a {@value #SHARE}th of its bytes
 * (what the pass reads): a filter admitting a few events of a large block scans those alone; a scan
 * that asks every text of its blocks ({@link KeyValueStates}) takes it at the first, even where a
 * time range admits only a few of the block's events (same answers; the pass reads the whole
 * block). The least recently asked block gives its slot to a new one. Not thread-safe: one per
 * column.
 */
final class RegionPlaces {
  static final int SLOTS = 4;
  static final int AFTER_TEXTS = 8;
  static final int SHARE = 16;

  private final TextRegion[] regions = new TextRegion[SLOTS];
  private final KeyPlaces[] places = new KeyPlaces[SLOTS];
  private final boolean[] noted = new boolean[SLOTS]; // whether the slot's places are the region's
  private final int[] asked = new int[SLOTS]; // texts and bytes asked before the pass
  private final long[] askedBytes = new long[SLOTS];
  private final long[] used = new long[SLOTS]; // when each slot was last asked, for eviction
  private final byte[] key;
  private final boolean everyText; // every text of a block is asked: the pass taken at the first
  private long clock;
  private long passes;

  RegionPlaces(byte[] key) {
    this(key, false);
  }

  /**
   * Places of {@code key}; {@code everyText}: the asker reads every text of each block it asks
   * about, so a block's pass is taken when its first text is asked (no text scanned on its own).
   */
  RegionPlaces(byte[] key, boolean everyText) {
    this.key = key.clone();
    this.everyText = everyText;
  }

  /**
   * The places that answer the text {@code bytes[offset, offset + length)} of a block lying in
   * {@code region}, or null when the text is to be scanned on its own (no region, a text outside
   * it, or too little of the block asked yet).
   */
  KeyPlaces places(TextRegion region, byte[] bytes, int offset, int length) {
    if (region == null
        || region.bytes() != bytes
        || offset < region.start()
        || offset + length > region.end()) {
      return null;
    }
    int slot = slot(region);
    used[slot] = ++clock;
    if (noted[slot]) {
      return places[slot];
    }
    asked[slot]++;
    askedBytes[slot] += length;
    if (!everyText
        && (asked[slot] < AFTER_TEXTS
            || askedBytes[slot] * SHARE < (long) region.end() - region.start())) {
      return null;
    }
    if (places[slot] == null) {
      places[slot] = new KeyPlaces(key);
    }
    places[slot].reset(bytes, region.start(), region.end());
    noted[slot] = true;
    passes++;
    return places[slot];
  }

  /** How many passes over blocks were taken (for tests: one per block, however runs interleave). */
  long passes() {
    return passes;
  }

  /** The slot holding {@code region}, else the least recently asked one, given to it. */
  private int slot(TextRegion region) {
    int oldest = 0;
    for (int s = 0; s < SLOTS; s++) {
      if (regions[s] == region) {
        return s;
      }
      if (used[s] < used[oldest]) {
        oldest = s;
      }
    }
    regions[oldest] = region;
    noted[oldest] = false;
    asked[oldest] = 0;
    askedBytes[oldest] = 0;
    return oldest;
  }
}
