package io.quarry.codecs.tokens;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Distinct byte strings in one pool behind an open-addressing hash table: string {@code id} is
 * {@code pool()[start(id), end(id))}, ids numbered in first-added order. What {@link TermSet} keeps
 * its terms in and {@link SeenSpans} its quoted spans: short strings, looked up far more often than
 * added, in a table small enough to stay in cache. Strings are compared byte for byte, so a hash
 * collision never merges two. Reusable after {@link #clear}; not thread-safe.
 */
final class ByteStringSet {
  private byte[] pool = new byte[1 << 12]; // the strings' bytes back to back
  private int poolSize;
  private int[] starts = new int[64]; // string s is pool[starts[s], starts[s + 1])
  private int size;
  // per slot two longs: the string's hash (high half) and id + 1 (low half, 0 for empty), then its
  // key (#key): a probe compares keys first, and a string under eight bytes long is its key, so
  // finding one (the common case: a block's terms repeat) reads neither the pool nor the starts;
  // 2 × a power of two long, at most half the slots full
  private long[] table = new long[256];

  /**
   * Adds {@code bytes[offset, offset + length)}, whose {@link #hash} is given, unless the set holds
   * it already; true when it was added.
   */
  boolean add(byte[] bytes, int offset, int length, int hash) {
    return add(bytes, offset, length, hash, key(bytes, offset, length));
  }

  /**
   * Adds {@code bytes[offset, offset + length)} unless the set holds it already, its {@link #key}
   * and its hash (at most seven bytes long: the {@link #mix} of its key) computed in one read.
   */
  boolean add(byte[] bytes, int offset, int length) {
    long key = key(bytes, offset, length);
    int hash = length < Long.BYTES ? mix(key) : hash(bytes, offset, length);
    return add(bytes, offset, length, hash, key);
  }

  private boolean add(byte[] bytes, int offset, int length, int hash, long key) {
    int mask = table.length - 2;
    for (int slot = (hash << 1) & mask; ; slot = (slot + 2) & mask) {
      long entry = table[slot];
      if (entry == 0) {
        table[slot] = ((long) hash << 32) | (append(bytes, offset, length) + 1L);
        table[slot + 1] = key;
        if (4 * size > table.length) {
          rehash();
        }
        return true;
      }
      if (table[slot + 1] == key
          && (length < Long.BYTES
              || ((int) (entry >>> 32) == hash && holds((int) entry - 1, bytes, offset, length)))) {
        return false;
      }
    }
  }

  /**
   * What a probe compares first: a string under eight bytes long is exactly its bytes (the low
   * bytes, little-endian) with its length in the high byte, so two such strings have equal keys
   * only when they are equal; a longer one is its first seven bytes with 0xFF in the high byte (no
   * shorter string's: its length is below eight), to be compared in the pool when the keys agree.
   */
  static long key(byte[] bytes, int offset, int length) {
    if (length < Long.BYTES) {
      return tail(bytes, offset, length) | ((long) length << 56);
    }
    return (long) LONGS.get(bytes, offset) | 0xFF00000000000000L;
  }

  private boolean holds(int id, byte[] bytes, int offset, int length) {
    int from = starts[id];
    return starts[id + 1] - from == length && same(pool, from, bytes, offset, length);
  }

  private int append(byte[] bytes, int offset, int length) {
    if (poolSize + length > pool.length) {
      pool = Arrays.copyOf(pool, Math.max(pool.length * 2, poolSize + length));
    }
    System.arraycopy(bytes, offset, pool, poolSize, length);
    poolSize += length;
    if (size + 2 > starts.length) {
      starts = Arrays.copyOf(starts, starts.length * 2);
    }
    starts[++size] = poolSize;
    return size - 1;
  }

  private void rehash() {
    long[] grown = new long[table.length * 2];
    int mask = grown.length - 2;
    for (int slot = 0; slot < table.length; slot += 2) {
      long entry = table[slot];
      if (entry == 0) {
        continue;
      }
      int to = ((int) (entry >>> 32) << 1) & mask;
      while (grown[to] != 0) {
        to = (to + 2) & mask;
      }
      grown[to] = entry;
      grown[to + 1] = table[slot + 1];
    }
    table = grown;
  }

  /** The number of distinct strings. */
  int size() {
    return size;
  }

  /** The bytes the strings are slices of; valid until the next {@link #add}. */
  byte[] pool() {
    return pool;
  }

  /** Where string {@code id} starts in {@link #pool}. */
  int start(int id) {
    return starts[id];
  }

  /** Where string {@code id} ends (exclusive) in {@link #pool}. */
  int end(int id) {
    return starts[id + 1];
  }

  /** Empties the set, keeping its arrays. */
  void clear() {
    if (size > 0) {
      Arrays.fill(table, 0);
    }
    size = 0;
    poolSize = 0;
  }

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /**
   * A string's hash, eight bytes at a time and the last up to seven in one more read ({@link
   * #tail}): terms are short (a few bytes), where a byte-at-a-time hash such as murmur3's tail loop
   * costs most of a lookup.
   */
  static int hash(byte[] bytes, int offset, int length) {
    if (length < Long.BYTES) {
      return mix(key(bytes, offset, length));
    }
    long h = length * 0x9E3779B97F4A7C15L;
    int i = 0;
    for (; i + Long.BYTES <= length; i += Long.BYTES) {
      h = (h ^ (long) LONGS.get(bytes, offset + i)) * 0xBF58476D1CE4E5B9L;
    }
    h = (h ^ tail(bytes, offset + i, length - i)) * 0x94D049BB133111EBL;
    return (int) (h ^ (h >>> 31) ^ (h >>> 47));
  }

  /** The hash of a string under eight bytes long, from its {@link #key} (which is all of it). */
  static int mix(long key) {
    long h = key * 0x9E3779B97F4A7C15L;
    h = (h ^ (h >>> 32)) * 0xBF58476D1CE4E5B9L;
    return (int) (h >>> 32);
  }

  /**
   * The {@code length} (below eight) bytes at {@code bytes[at]} as a little-endian long: one long
   * read from {@code at}, or from eight bytes before the array's end when {@code at} is closer to
   * it, shifted down; byte by byte only in an array shorter than eight bytes.
   *
   * <p>Without a branch on where the range lies (session 45): it had one, taken only for a range in
   * a body's last eight bytes, which C2 compiled as never taken while the first body was still
   * being indexed; the body's last term then hit the uncommon trap and every method that had
   * inlined this one — {@code TermSet.addSpan}, {@code add}, {@code addTerm}, {@link #hash}, {@code
   * holds}, {@link #add} — was thrown away and compiled again (7 deoptimizations in a 2M-line
   * ingest's JFR).
   */
  static long tail(byte[] bytes, int at, int length) {
    long kept = (1L << (Byte.SIZE * length)) - 1; // length 0 keeps nothing
    if (bytes.length >= Long.BYTES) {
      int from = Math.min(at, bytes.length - Long.BYTES); // a conditional move: no branch to trap
      return ((long) LONGS.get(bytes, from) >>> (Byte.SIZE * (at - from))) & kept;
    }
    long tail = 0;
    for (int i = 0, shift = 0; i < length; i++, shift += Byte.SIZE) {
      tail |= (bytes[at + i] & 0xFFL) << shift;
    }
    return tail;
  }

  /** Whether two ranges of {@code length} bytes are equal: eight at a time, for short strings. */
  static boolean same(byte[] a, int aFrom, byte[] b, int bFrom, int length) {
    int i = 0;
    for (; i + Long.BYTES <= length; i += Long.BYTES) {
      if ((long) LONGS.get(a, aFrom + i) != (long) LONGS.get(b, bFrom + i)) {
        return false;
      }
    }
    return tail(a, aFrom + i, length - i) == tail(b, bFrom + i, length - i);
  }
}
