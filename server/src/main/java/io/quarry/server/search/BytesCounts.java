package io.quarry.server.search;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Counts by key, a key being a range of some byte array's bytes: an open-addressing table (linear
 * probing, at most half full) of key ids, each key's bytes copied once into one arena, its hash
 * kept beside its slot (compared before the bytes) and its count in a {@code long[]} by id. What a
 * scan counting a search-time field's values in place uses ({@link RexCounting}): no {@code
 * String}, no page, no per-value object. Holds at most {@link #MAX_KEYS} keys or {@link #MAX_ARENA}
 * bytes of them ({@link #full}); its owner then hands the counts on ({@link #values}, {@link
 * #counts}) and {@link #clear}s it, so the table stays small whatever the field's cardinality. Not
 * thread-safe.
 */
final class BytesCounts {
  /** The most keys held before {@link #full} says so. */
  static final int MAX_KEYS = 1 << 16;

  /** The most key bytes held before {@link #full} says so. */
  static final int MAX_ARENA = 4 << 20;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private int[] slots = new int[1024]; // id + 1 of the key in the slot, 0: empty
  private int[] slotHashes = new int[1024]; // the hash of the key in the slot
  private byte[] arena = new byte[16 << 10]; // every key's bytes, back to back
  private int[] starts = new int[257]; // by id: where its bytes start; starts[size] = arena's end
  private long[] counts = new long[256]; // by id
  private int size; // keys held

  /** Adds {@code count} to the key {@code bytes[offset, offset + length)}. */
  void add(byte[] bytes, int offset, int length, long count) {
    int hash = hash(bytes, offset, length);
    int mask = slots.length - 1;
    for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
      int id = slots[slot] - 1;
      if (id < 0) {
        slots[slot] = insert(bytes, offset, length, count) + 1;
        slotHashes[slot] = hash;
        if (size * 2 > slots.length) {
          rehash();
        }
        return;
      }
      if (slotHashes[slot] == hash) {
        int start = starts[id];
        if (Arrays.equals(arena, start, starts[id + 1], bytes, offset, offset + length)) {
          counts[id] += count;
          return;
        }
      }
    }
  }

  /** The keys held. */
  int size() {
    return size;
  }

  /** Whether the table holds as many keys or key bytes as it should before it is handed on. */
  boolean full() {
    return size >= MAX_KEYS || starts[size] >= MAX_ARENA;
  }

  /** The keys held, in the order first added, as a block of texts. */
  BytesBlock values() {
    BytesBlock.Builder values = BytesBlock.builder(size);
    for (int id = 0; id < size; id++) {
      values.append(arena, starts[id], starts[id + 1] - starts[id]);
    }
    return values.build();
  }

  /** The keys' counts, in {@link #values}' order. */
  LongBlock counts() {
    LongBlock.Builder built = LongBlock.builder(DataType.LONG, size);
    for (int id = 0; id < size; id++) {
      built.append(counts[id]);
    }
    return built.build();
  }

  /** Holds no key from now on; keeps the memory it grew to. */
  void clear() {
    Arrays.fill(slots, 0);
    size = 0;
  }

  private int insert(byte[] bytes, int offset, int length, long count) {
    int id = size;
    int start = starts[id];
    if (start + length > arena.length) {
      arena = Arrays.copyOf(arena, Math.max(arena.length * 2, start + length));
    }
    System.arraycopy(bytes, offset, arena, start, length);
    if (id + 2 > starts.length) {
      starts = Arrays.copyOf(starts, starts.length * 2);
    }
    if (id + 1 > counts.length) {
      counts = Arrays.copyOf(counts, counts.length * 2);
    }
    starts[id + 1] = start + length;
    counts[id] = count;
    size = id + 1;
    return id;
  }

  private void rehash() {
    int[] oldSlots = slots;
    int[] oldHashes = slotHashes;
    slots = new int[oldSlots.length * 2];
    slotHashes = new int[slots.length];
    int mask = slots.length - 1;
    for (int s = 0; s < oldSlots.length; s++) {
      if (oldSlots[s] != 0) {
        int slot = oldHashes[s] & mask;
        while (slots[slot] != 0) {
          slot = (slot + 1) & mask;
        }
        slots[slot] = oldSlots[s];
        slotHashes[slot] = oldHashes[s];
      }
    }
  }

  /**
   * A hash of {@code bytes[offset, offset + length)}, eight bytes a step (the last eight read again
   * where the length is not a multiple of eight), mixed so that its low bits pick slots.
   */
  static int hash(byte[] bytes, int offset, int length) {
    long h = length * 0x9E3779B97F4A7C15L;
    int end = offset + length;
    if (length >= 8) {
      int at = offset;
      for (; at + 8 <= end; at += 8) {
        h = mix(h ^ (long) LONGS.get(bytes, at));
      }
      if (at < end) {
        h = mix(h ^ (long) LONGS.get(bytes, end - 8));
      }
    } else {
      long tail = 0;
      for (int at = offset, shift = 0; at < end; at++, shift += 8) {
        tail |= (bytes[at] & 0xFFL) << shift;
      }
      h = mix(h ^ tail);
    }
    h ^= h >>> 32;
    return (int) (h ^ (h >>> 16));
  }

  private static long mix(long h) {
    h *= 0xC2B2AE3D27D4EB4FL;
    return h ^ (h >>> 29);
  }
}
