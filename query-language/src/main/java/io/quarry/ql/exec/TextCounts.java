package io.quarry.ql.exec;

import java.util.Arrays;
import java.util.function.ObjLongConsumer;

/**
 * Row counts by a text key, laid out for a scan that looks up every row: an open-addressing table
 * of {@code long}s (hash and group id in one), the keys and the counts in arrays by group id. A
 * lookup reads one table slot, compares the key only when the hashes agree, and adds to a {@code
 * long[]}; a {@code HashMap<String, …>} walks a node and the value's objects, and with thousands of
 * groups (a {@code stats count by clientip} has 5,000; a session id 200,000) those objects leave
 * the core's cache. Keys are never removed, only all at once ({@link #drainTo}). Not thread-safe.
 */
final class TextCounts {
  /** Bytes a key costs beyond its text: table slots at half load, key reference, count. */
  static final long KEY_OVERHEAD_BYTES = 2 * Long.BYTES + 8 + Long.BYTES;

  private long[] table = new long[64]; // (hash << 32) | (id + 1); 0 = empty
  private String[] keys = new String[32];
  private long[] counts = new long[32];
  private int size;

  /**
   * Counts a row of {@code key}.
   *
   * @return the bytes the key took when it is new, else 0
   */
  long add(String key) {
    int hash = mix(key.hashCode());
    int mask = table.length - 1;
    for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
      long entry = table[slot];
      if (entry == 0) {
        int id = insert(slot, hash, key);
        counts[id] = 1;
        return KEY_OVERHEAD_BYTES + MemoryTracker.valueBytes(key);
      }
      if ((int) (entry >>> 32) == hash) {
        int id = (int) entry - 1;
        if (keys[id].equals(key)) {
          counts[id]++;
          return 0;
        }
      }
    }
  }

  /** The number of keys. */
  int size() {
    return size;
  }

  /**
   * Hands every key and its count to {@code target} and forgets them all.
   *
   * @return the bytes the keys took
   */
  long drainTo(ObjLongConsumer<String> target) {
    long bytes = 0;
    for (int id = 0; id < size; id++) {
      target.accept(keys[id], counts[id]);
      bytes += KEY_OVERHEAD_BYTES + MemoryTracker.valueBytes(keys[id]);
      keys[id] = null;
    }
    Arrays.fill(table, 0);
    size = 0;
    return bytes;
  }

  private int insert(int slot, int hash, String key) {
    int id = size++;
    if (id == keys.length) {
      keys = Arrays.copyOf(keys, id * 2);
      counts = Arrays.copyOf(counts, id * 2);
    }
    keys[id] = key;
    table[slot] = ((long) hash << 32) | (id + 1);
    if (size * 2 > table.length) {
      rehash();
    }
    return id;
  }

  private void rehash() {
    long[] old = table;
    table = new long[old.length * 2];
    int mask = table.length - 1;
    for (long entry : old) {
      if (entry != 0) {
        int slot = (int) (entry >>> 32) & mask;
        while (table[slot] != 0) {
          slot = (slot + 1) & mask;
        }
        table[slot] = entry;
      }
    }
  }

  /** Spreads a {@code String} hash so that keys differing in their last characters spread too. */
  private static int mix(int hash) {
    int h = hash * 0x9E3779B9;
    return h ^ (h >>> 16);
  }
}
