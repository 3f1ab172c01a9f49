package io.quarry.ql.exec;

import java.util.Arrays;

/**
 * Dense group ids for text keys, laid out for a scan that looks up every row: an open-addressing
 * table of {@code long}s (hash and id in one) and the keys in an array by id, so a lookup reads one
 * table slot and compares a key only when the hashes agree. What a group holds lives in arrays by
 * id beside it ({@link GroupStates}): with many groups (a {@code stats count by clientip} has
 * 5,000; a session id 200,000) a {@code HashMap<String, …>}'s nodes and value objects lie all over
 * the heap and each row paid for several cache misses.
 *
 * <p>A key of at most 15 Latin-1 characters (an IP address, a status code, most user and host
 * names) is also packed into two {@code long}s by id, hashed from them, and a row's key is compared
 * with those, not with the kept {@code String} and its bytes: in a scan that decodes journal blocks
 * between lookups the kept keys fall out of the cache, and comparing them took a tenth of a {@code
 * rex … | stats count by} over 10M events. (A pool of the keys' characters beside their ids, read
 * with the states at once, measured no faster at 5,000 or 200,000 groups.)
 *
 * <p>Keys are removed only all at once ({@link #clear}). Not thread-safe.
 */
public final class TextGroups {
  /**
   * Bytes a key costs beyond its text: table slots at half load, the key's reference and its packed
   * form.
   */
  public static final long KEY_OVERHEAD_BYTES = 2 * Long.BYTES + 8 + 2 * Long.BYTES;

  /** The packed form's second half for a key that has none (no packed key's length byte is 255). */
  private static final long NOT_PACKED = -1L;

  private long[] table = new long[64]; // (hash << 32) | (id + 1); 0 = empty
  private String[] keys = new String[32];

  /** By id: characters 0-7, then characters 8-14 with the length in the top byte, or NOT_PACKED. */
  private long[] packed = new long[64];

  private int size;

  /** The id of {@code key}: {@code id >= 0} when it was there, {@code -id - 1} for a new one. */
  public int id(String key) {
    long low = 0;
    long high = NOT_PACKED;
    int length = key.length();
    if (length <= 15) {
      high = (long) length << 56;
      for (int i = 0; i < length; i++) {
        char c = key.charAt(i);
        if (c > 0xFF) {
          high = NOT_PACKED;
          break;
        }
        if (i < 8) {
          low |= (long) c << (i << 3);
        } else {
          high |= (long) c << ((i - 8) << 3);
        }
      }
    }
    // a packed key hashes from its packed form (whether a key packs depends only on the key)
    int hash = high != NOT_PACKED ? mix(low, high) : mix(key.hashCode());
    int mask = table.length - 1;
    for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
      long entry = table[slot];
      if (entry == 0) {
        return -insert(slot, hash, key, low, high) - 1;
      }
      if ((int) (entry >>> 32) == hash) {
        int id = (int) entry - 1;
        if (packed[2 * id + 1] == high
            && (high != NOT_PACKED ? packed[2 * id] == low : keys[id].equals(key))) {
          return id;
        }
      }
    }
  }

  /** The key of a group id. */
  public String key(int id) {
    return keys[id];
  }

  /** The number of keys; ids are {@code [0, size)}. */
  public int size() {
    return size;
  }

  /** Forgets every key. */
  public void clear() {
    Arrays.fill(keys, 0, size, null);
    Arrays.fill(table, 0);
    size = 0;
  }

  private int insert(int slot, int hash, String key, long low, long high) {
    int id = size++;
    if (id == keys.length) {
      keys = Arrays.copyOf(keys, id * 2);
      packed = Arrays.copyOf(packed, id * 4);
    }
    keys[id] = key;
    packed[2 * id] = low;
    packed[2 * id + 1] = high;
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

  /** A hash of a packed key: each half multiplied by an odd constant, the high bits folded in. */
  private static int mix(long low, long high) {
    long h = low * 0x9E3779B97F4A7C15L + high * 0xC2B2AE3D27D4EB4FL;
    h ^= h >>> 29;
    h *= 0xBF58476D1CE4E5B9L;
    return (int) (h ^ (h >>> 32));
  }
}
