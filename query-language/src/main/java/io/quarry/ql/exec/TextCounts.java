package io.quarry.ql.exec;

import java.util.Arrays;
import java.util.function.ObjLongConsumer;

/**
 * Row counts by a text key, laid out for a scan that looks up every row: an open-addressing table
 * of {@code long}s (hash and group id in one), the keys' characters in one pool and the counts in a
 * {@code long[]} by group id. A lookup touches three arrays; a {@code HashMap<String, …>} walks a
 * node, a key, its bytes and the value's objects. With thousands of groups (a {@code stats count by
 * clientip} has 5,000) the map's objects no longer fit the core's cache and each row paid for
 * misses. Keys are never removed, only all at once ({@link #drainTo}). Not thread-safe.
 */
final class TextCounts {
  /** Bytes a key costs beyond its characters: a table slot at half load, offset, count. */
  static final long KEY_OVERHEAD_BYTES = 2 * Long.BYTES + Integer.BYTES + Long.BYTES;

  private long[] table = new long[64]; // (hash << 32) | (id + 1); 0 = empty
  private char[] chars = new char[256];
  private int[] starts = new int[33]; // key id's characters: chars[starts[id], starts[id + 1])
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
        return KEY_OVERHEAD_BYTES + 2L * key.length();
      }
      if ((int) (entry >>> 32) == hash) {
        int id = (int) entry - 1;
        if (keyEquals(id, key)) {
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
      String key = new String(chars, starts[id], starts[id + 1] - starts[id]);
      target.accept(key, counts[id]);
      bytes += KEY_OVERHEAD_BYTES + 2L * key.length();
    }
    Arrays.fill(table, 0);
    size = 0;
    return bytes;
  }

  private boolean keyEquals(int id, String key) {
    int start = starts[id];
    int length = key.length();
    if (starts[id + 1] - start != length) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      if (chars[start + i] != key.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private int insert(int slot, int hash, String key) {
    int id = size++;
    if (id == counts.length) {
      counts = Arrays.copyOf(counts, counts.length * 2);
      starts = Arrays.copyOf(starts, counts.length + 1);
    }
    int start = starts[id];
    int end = start + key.length();
    if (end > chars.length) {
      chars = Arrays.copyOf(chars, Math.max(end, chars.length * 2));
    }
    key.getChars(0, key.length(), chars, start);
    starts[id + 1] = end;
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
