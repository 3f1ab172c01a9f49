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
 * probing, at most half full) whose slot is {@code long}s side by side — a key of at most 16 bytes
 * itself (two words, zero-padded), its length and id, then its state lanes: its count, and in a
 * {@link #timed} table its least and greatest time (six longs) — so that finding a short key's
 * states reads one slot and compares two words, no other array; a longer key's slot holds its
 * 64-bit hash and first eight bytes, its bytes compared in the arena. Every key's bytes are copied
 * once into one arena, for {@link #values}. What a scan aggregating a search-time field's values in
 * place uses ({@link RexCounting} counts, {@link KeyValueStates} counts and times): no {@code
 * String}, no page, no per-value object. Holds at most {@link #MAX_KEYS} keys (or as many as its
 * owner asks) or {@link #MAX_ARENA} bytes of them ({@link #add} says when); its owner then hands
 * the counts on ({@link #values}, {@link #counts}) and {@link #clear}s it, so the table stays small
 * whatever the field's cardinality. What its arrays hold is charged to the search's memory account
 * as they grow (a {@link MemoryTracker}: over the search's limit {@link #add} throws the typed
 * memory error) until {@link #release}. A clear of a table of few keys for its size empties only
 * the slots they took. Not thread-safe.
 */
final class BytesCounts {
  /** The most keys held before {@link #add} says the table is full. */
  static final int MAX_KEYS = 1 << 16;

  /** The most key bytes held before {@link #add} says the table is full. */
  static final int MAX_ARENA = 4 << 20;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final int SHORT = 16; // the longest key held in its slot
  // a slot's longs: two key words, length << 32 | id + 1, then its state lanes
  private static final int COUNT = 3; // the rows' lane
  private static final int MIN_TIME = 4; // a timed table's least and greatest time
  private static final int MAX_TIME = 5;

  private final MemoryTracker memory;
  private final int stride; // longs a slot: 4, or 6 with the times
  private final int maxKeys;
  private long[] table;
  private int mask = 1023; // slots - 1
  private byte[] arena = new byte[16 << 10]; // every key's bytes, back to back
  private int[] starts = new int[257]; // by id: where its bytes start; starts[size] = arena's end
  private int[] slots = new int[256]; // by id: the slot that holds it
  private int size; // keys held

  /** An empty table whose arrays are charged to {@code memory} ({@link #release} gives back). */
  BytesCounts(MemoryTracker memory) {
    this(memory, false, MAX_KEYS);
  }

  /**
   * An empty table that also keeps each key's least and greatest time ({@code timed}: {@link
   * #addTimed}, {@link #minTimes}, {@link #maxTimes}), full at {@code maxKeys} keys.
   */
  BytesCounts(MemoryTracker memory, boolean timed, int maxKeys) {
    this.memory = memory;
    this.stride = timed ? MAX_TIME + 1 : COUNT + 1;
    this.maxKeys = maxKeys;
    this.table = new long[1024 * stride];
    memory.add(8L * table.length + arena.length + 4L * starts.length + 4L * slots.length);
  }

  /** Whether the table keeps each key's least and greatest time. */
  boolean timed() {
    return stride > COUNT + 1;
  }

  /**
   * Adds {@code count} to the key {@code bytes[offset, offset + length)}; true when the table now
   * holds as many keys or key bytes as it should before it is handed on.
   */
  boolean add(byte[] bytes, int offset, int length, long count) {
    int at = find(bytes, offset, length);
    table[at + COUNT] += count;
    return full();
  }

  /**
   * Adds one row of {@code time} (epoch microseconds) to the key {@code bytes[offset, offset +
   * length)} of a table that {@link #timed keeps times}: its count and its least and greatest time;
   * true when the table is full, as {@link #add}.
   */
  boolean addTimed(byte[] bytes, int offset, int length, long time) {
    int at = find(bytes, offset, length);
    long[] table = this.table;
    table[at + COUNT]++;
    if (time < table[at + MIN_TIME]) {
      table[at + MIN_TIME] = time;
    }
    if (time > table[at + MAX_TIME]) {
      table[at + MAX_TIME] = time;
    }
    return full();
  }

  /** Whether the table holds as many keys or key bytes as it should before it is handed on. */
  private boolean full() {
    return size >= maxKeys || starts[size] >= MAX_ARENA;
  }

  /** Where the slot of the key {@code bytes[offset, offset + length)} starts, inserted if new. */
  private int find(byte[] bytes, int offset, int length) {
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
    int stride = this.stride;
    for (int slot = slot(first, second, length); ; slot = (slot + 1) & mask) {
      long[] table = this.table;
      int at = slot * stride;
      long meta = table[at + 2];
      if (meta == 0) {
        if ((size + 1) * 2 > mask + 1) {
          rehash(); // at most half full: probed again in the grown table
          return find(bytes, offset, length);
        }
        int id = insert(bytes, offset, length, slot);
        table[at] = first;
        table[at + 1] = second;
        table[at + 2] = lengthBits | (id + 1);
        table[at + COUNT] = 0;
        if (stride > COUNT + 1) {
          table[at + MIN_TIME] = Long.MAX_VALUE;
          table[at + MAX_TIME] = Long.MIN_VALUE;
        }
        return at;
      }
      if (table[at] == first
          && table[at + 1] == second
          && (meta & 0xFFFF_FFFF_0000_0000L) == lengthBits
          && (length <= SHORT || sameLong(bytes, offset, length, (int) meta - 1))) {
        return at;
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
    for (int at = 0; at < table.length; at += stride) {
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
    return lane(COUNT, DataType.LONG);
  }

  /** The keys' least times (epoch microseconds), in {@link #values}' order; a timed table's. */
  LongBlock minTimes() {
    return lane(MIN_TIME, DataType.TIMESTAMP);
  }

  /** The keys' greatest times, in {@link #values}' order; a timed table's. */
  LongBlock maxTimes() {
    return lane(MAX_TIME, DataType.TIMESTAMP);
  }

  private LongBlock lane(int lane, DataType type) {
    if (lane >= stride) {
      throw new IllegalStateException("the table keeps no times");
    }
    LongBlock.Builder built = LongBlock.builder(type, size);
    for (int at = 0; at < table.length; at += stride) {
      if (table[at + 2] != 0) {
        built.append(table[at + lane]);
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
        table[slots[id] * stride + 2] = 0;
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
    table = new long[grown * stride];
    mask = grown - 1;
    for (int from = 0; from < old.length; from += stride) {
      long meta = old[from + 2];
      if (meta != 0) {
        int slot = slot(old[from], old[from + 1], (int) (meta >>> 32));
        while (table[slot * stride + 2] != 0) {
          slot = (slot + 1) & mask;
        }
        System.arraycopy(old, from, table, slot * stride, stride);
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
