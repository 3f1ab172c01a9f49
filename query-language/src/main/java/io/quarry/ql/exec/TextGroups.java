package io.quarry.ql.exec;

import java.util.Arrays;

/**
 * Dense group ids for text keys, laid out for a scan that looks up every row: an open-addressing
 * table of {@code long}s (hash and id in one) and the keys in an array by id, so a lookup reads one
 * table slot and compares a key only when the hashes agree. What a group holds lives in arrays by
 * id beside it ({@link GroupStates}): with many groups (a {@code stats count by clientip} has
 * 5,000; a session id 200,000) a {@code HashMap<String, …>}'s nodes and value objects lie all over
 * the heap and each row paid for several cache misses. (A pool of the keys' characters beside their
 * ids, read with the states at once, measured no faster at 5,000 or 200,000 groups.) Keys are
 * removed only all at once ({@link #clear}). Not thread-safe.
 */
final class TextGroups {
  /** Bytes a key costs beyond its text: table slots at half load and the key's reference. */
  static final long KEY_OVERHEAD_BYTES = 2 * Long.BYTES + 8;

  private long[] table = new long[64]; // (hash << 32) | (id + 1); 0 = empty
  private String[] keys = new String[32];
  private int size;

  /** The id of {@code key}: {@code id >= 0} when it was there, {@code -id - 1} for a new one. */
  int id(String key) {
    int hash = mix(key.hashCode());
    int mask = table.length - 1;
    for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
      long entry = table[slot];
      if (entry == 0) {
        return -insert(slot, hash, key) - 1;
      }
      if ((int) (entry >>> 32) == hash) {
        int id = (int) entry - 1;
        if (keys[id].equals(key)) {
          return id;
        }
      }
    }
  }

  /** The key of a group id. */
  String key(int id) {
    return keys[id];
  }

  /** The number of keys; ids are {@code [0, size)}. */
  int size() {
    return size;
  }

  /** Forgets every key. */
  void clear() {
    Arrays.fill(keys, 0, size, null);
    Arrays.fill(table, 0);
    size = 0;
  }

  private int insert(int slot, int hash, String key) {
    int id = size++;
    if (id == keys.length) {
      keys = Arrays.copyOf(keys, id * 2);
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
