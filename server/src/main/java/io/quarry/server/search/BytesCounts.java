package io.quarry.server.search;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.ql.exec.MemoryTracker;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Counts by key, a key being a range of some byte array's bytes: an open-addressing table (linear
 * probing, at most half full) whose slot is four {@code long}s side by side — a key of at most 16
 * bytes itself (two words, zero-padded), its length and id, its count — so that finding a short
 * key's count reads one slot and compares two words, no other array; a longer key's slot holds its
 * 64-bit hash and first eight bytes, its bytes compared in the arena. Every key's bytes are copied
 * once into one arena, for {@link #values}. What a scan counting a search-time field's values in
 * place uses ({@link RexCounting}): no {@code String}, no page, no per-value object. Holds at most
 * {@link #MAX_KEYS} keys or {@link #MAX_ARENA} bytes of them ({@link #add} says when); its owner
 * then hands the counts on ({@link #values}, {@link #counts}) and {@link #clear}s it, so the table
 * stays small whatever the field's cardinality. What its arrays hold is charged to the search's
 * memory account as they grow (a {@link MemoryTracker}: over the search's limit {@link #add} throws
 * the typed memory error) until {@link #release}. A clear of a table of few keys for its size
 * empties only the slots they took. Not thread-safe.
 */
final class BytesCounts {
  /** The most keys held before {@link #add} says the table is full. */
  static final int MAX_KEYS = 1 << 16;

  /** The most key bytes held before {@link #add} says the table is full. */
  static final int MAX_ARENA = 4 << 20;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final int SHORT = 16; // the longest key held in its slot
  private static final int STRIDE = 4; // longs a slot: two key words, length << 32 | id + 1, count

  private final MemoryTracker memory;
  private long[] table = new long[1024 * STRIDE];
  private int mask = 1023; // slots - 1
  private byte[] arena = new byte[16 << 10]; // every key's bytes, back to back
  private int[] starts = new int[257]; // by id: where its bytes start; starts[size] = arena's end
  private int[] slots = new int[256]; // by id: the slot that holds it
  private int size; // keys held

  /** An empty table whose arrays are charged to {@code memory} ({@link #release} gives back). */
  BytesCounts(MemoryTracker memory) {
    this.memory = memory;
    memory.add(8L * table.length + arena.length + 4L * starts.length + 4L * slots.length);
  }

  /**
   * Adds {@code count} to the key {@code bytes[offset, offset + length)}; true when the table now
   * holds as many keys or key bytes as it should before it is handed on.
   */
  boolean add(byte[] bytes, int offset, int length, long count) {
    long first;
    long second;
    if (length > SHORT) {
      first = longHash(bytes, offset, length);
      second = (long) LONGS.get(bytes, offset);
    } else if (length >= 8) {
      first = (long) LONGS.get(bytes, offset);
      // the last eight bytes, less those the first word holds
      second =
          length == 8 ? 0 : (long) LONGS.get(bytes, offset + length - 8) >>> (8 * (SHORT - length));
    } else if (offset + 8 <= bytes.length) {
      first = (long) LONGS.get(bytes, offset) & ((1L << (8 * length)) - 1); // length 0: none
      second = 0;
    } else {
      first = 0;
      for (int b = 0; b < length; b++) {
        first |= (bytes[offset + b] & 0xFFL) << (8 * b);
      }
      second = 0;
    }
    long lengthBits = (long) length << 32;
    long[] table = this.table;
    for (int slot = slot(first, second, length); ; slot = (slot + 1) & mask) {
      int at = slot * STRIDE;
      long meta = table[at + 2];
      if (meta == 0) {
        int id = insert(bytes, offset, length, slot);
        table[at] = first;
        table[at + 1] = second;
        table[at + 2] = lengthBits | (id + 1);
        table[at + 3] = count;
        if (size * 2 > mask + 1) {
          rehash();
        }
        return size >= MAX_KEYS || starts[size] >= MAX_ARENA;
      }
      if (table[at] == first
          && table[at + 1] == second
          && (meta & 0xFFFF_FFFF_0000_0000L) == lengthBits
          && (length <= SHORT || sameLong(bytes, offset, length, (int) meta - 1))) {
        table[at + 3] += count;
        return false;
      }
    }
  }

  /** The keys held. */
  int size() {
    return size;
  }

  /**
   * The keys held, in the table's order (one pass over it: a slot read at random per key costs more
   * once the table is large), as a block of texts; {@link #counts} in the same.
   */
  BytesBlock values() {
    BytesBlock.Builder values = BytesBlock.builder(size);
    for (int at = 0; at < table.length; at += STRIDE) {
      long meta = table[at + 2];
      if (meta != 0) {
        int id = (int) meta - 1;
        values.append(arena, starts[id], starts[id + 1] - starts[id]);
      }
    }
    return values.build();
  }

  /** The keys' counts, in {@link #values}' order. */
  LongBlock counts() {
    LongBlock.Builder built = LongBlock.builder(DataType.LONG, size);
    for (int at = 0; at < table.length; at += STRIDE) {
      if (table[at + 2] != 0) {
        built.append(table[at + 3]);
      }
    }
    return built.build();
  }

  /**
   * Holds no key from now on; keeps the memory it grew to. A table of few keys for its size empties
   * only the slots they took (a slot is empty when its length-and-id word is 0; {@link #add} writes
   * the other three); a fuller one is emptied whole, in one pass (a write at random per key costs
   * more than one sequential pass once the keys fill a good part of a large table).
   */
  void clear() {
    long[] table = this.table;
    if (size * 16L < mask + 1) {
      for (int id = 0; id < size; id++) {
        table[slots[id] * STRIDE + 2] = 0;
      }
    } else {
      Arrays.fill(table, 0);
    }
    size = 0;
  }

  /** Gives back what was charged for the arrays; the table is not used after. Twice: no-op. */
  void release() {
    memory.release();
  }

  private boolean sameLong(byte[] bytes, int offset, int length, int id) {
    int start = starts[id];
    return Arrays.equals(arena, start, start + length, bytes, offset, offset + length);
  }

  /** Copies a new key's bytes into the arena; its id, held in {@code slot}. */
  private int insert(byte[] bytes, int offset, int length, int slot) {
    int id = size;
    int start = starts[id];
    if (start + length > arena.length) {
      int grown = Math.max(arena.length * 2, start + length);
      memory.add(grown - arena.length); // charged before it is held: over the limit, not grown
      arena = Arrays.copyOf(arena, grown);
    }
    System.arraycopy(bytes, offset, arena, start, length);
    if (id + 2 > starts.length) {
      memory.add(4L * starts.length);
      starts = Arrays.copyOf(starts, starts.length * 2);
    }
    if (id + 1 > slots.length) {
      memory.add(4L * slots.length);
      this.slots = Arrays.copyOf(slots, slots.length * 2);
    }
    starts[id + 1] = start + length;
    slots[id] = slot;
    size = id + 1;
    return id;
  }

  private void rehash() {
    long[] old = table;
    int grown = (mask + 1) * 2;
    memory.add(8L * old.length); // the table doubles
    table = new long[grown * STRIDE];
    mask = grown - 1;
    for (int from = 0; from < old.length; from += STRIDE) {
      long meta = old[from + 2];
      if (meta != 0) {
        int slot = slot(old[from], old[from + 1], (int) (meta >>> 32));
        while (table[slot * STRIDE + 2] != 0) {
          slot = (slot + 1) & mask;
        }
        System.arraycopy(old, from, table, slot * STRIDE, STRIDE);
        slots[(int) meta - 1] = slot;
      }
    }
  }

  /** The first slot to probe for a key of these two words and length. */
  private int slot(long first, long second, int length) {
    long h = (first * 0x9E3779B97F4A7C15L) ^ (second * 0xC2B2AE3D27D4EB4FL) ^ length;
    h ^= h >>> 29;
    h *= 0xBF58476D1CE4E5B9L;
    return (int) (h >>> 32) & mask;
  }

  /**
   * A 64-bit hash of a key longer than 16 bytes, eight bytes a step (the last eight overlapping).
   */
  static long longHash(byte[] bytes, int offset, int length) {
    long h = length * 0x9E3779B97F4A7C15L;
    int end = offset + length;
    int at = offset;
    for (; at + 8 <= end; at += 8) {
      h = mix(h ^ (long) LONGS.get(bytes, at));
    }
    if (at < end) {
      h = mix(h ^ (long) LONGS.get(bytes, end - 8));
    }
    return h;
  }

  private static long mix(long h) {
    h *= 0xC2B2AE3D27D4EB4FL;
    return h ^ (h >>> 29);
  }
}
