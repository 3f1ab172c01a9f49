package io.quarry.server.search;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.ql.exec.MemoryTracker;
import java.util.Arrays;

/**
 * Counts by key, a key being a range of some byte array's bytes: an open-addressing index (linear
 * probing, at most half full) of {@code int}s — each a key's id and twelve more bits of its hash,
 * so a probe that meets another key rarely reads its record — over records by id, {@code long}s
 * side by side: a key of at most 16 bytes itself (two words, zero-padded), its length, then its
 * state lanes: its count, and in a {@link #timed} table its least and greatest time (six longs,
 * padded to eight: one cache line, {@link #RECORDS_FROM}). A short key's states are found by one
 * index entry and one record, two words compared, no other array; a longer key's record holds its
 * 64-bit hash and first eight bytes, its bytes compared in the arena. The records lie in the order
 * the keys came, without the half-empty slots of the index: 200,000 session ids take 12.8 MB of
 * records and a 2 MiB index, not a 24 MiB table of slots (the cache misses that dominate such a
 * table's cost). Every key's bytes are copied once into one arena, for {@link #values}. What a scan
 * aggregating a search-time field's values in place uses ({@link RexCounting} counts, {@link
 * KeyValueStates} counts and times): no {@code String}, no page, no per-value object. Holds at most
 * {@link #MAX_KEYS} keys (or as many as its owner asks) or {@link #MAX_ARENA} bytes of them ({@link
 * #add} says when); its owner then hands the states on ({@link #values}, {@link #counts}) and
 * {@link #clear}s it, so the table stays small whatever the field's cardinality. What its arrays
 * hold is charged to the search's memory account as they grow (a {@link MemoryTracker}: over the
 * search's limit {@link #add} throws the typed memory error) until {@link #release}. A clear of a
 * table of few keys for its size empties only the index entries they took. Not thread-safe.
 */
final class BytesCounts {
  /** The most keys held before {@link #add} says the table is full. */
  static final int MAX_KEYS = 1 << 16;

  /** The most key bytes held before {@link #add} says the table is full. */
  static final int MAX_ARENA = 4 << 20;

  private static final int SHORT = KeyWords.SHORT; // the longest key held in its record
  // a record's longs: two key words, the length, then its state lanes
  private static final int LENGTH = 2;
  private static final int COUNT = 3; // the rows' lane
  private static final int MIN_TIME = 4; // a timed table's least and greatest time
  private static final int MAX_TIME = 5;
  // a timed record's longs: padded to a cache line's eight, so that each lies in one line
  private static final int TIMED_STRIDE = 8;

  /**
   * Longs before the first record: with a {@code long[]}'s elements 16 bytes after the array's
   * start (HotSpot's header, compressed or compact) and a large array starting a G1 region, six
   * longs put every record of 8 (or 4) longs inside one 64-byte cache line (48-byte records
   * straddled two lines every other key: two misses per lookup, not one). Elsewhere only slower.
   */
  private static final int RECORDS_FROM = 6;

  private static final int ID_BITS = 20; // an index entry: hash tag << ID_BITS | id + 1
  private static final int ID_MASK = (1 << ID_BITS) - 1;

  private final MemoryTracker memory;
  private final int stride; // longs a record: 4, or 8 with the times (6 used)
  private final int maxKeys;
  private int[] index = new int[1024];
  private int mask = 1023; // index entries - 1
  private long[] records;
  private byte[] arena = new byte[16 << 10]; // every key's bytes, back to back
  private int[] starts = new int[257]; // by id: where its bytes start; starts[size] = arena's end
  private int[] slots = new int[256]; // by id: the index entry that holds it
  private int size; // keys held

  /** An empty table whose arrays are charged to {@code memory} ({@link #release} gives back). */
  BytesCounts(MemoryTracker memory) {
    this(memory, false, MAX_KEYS);
  }

  /**
   * An empty table, full at {@code maxKeys} keys (below 2<sup>20</sup>), that also keeps each key's
   * least and greatest time where {@code timed} ({@link #addRow}, {@link #minTimes}, {@link
   * #maxTimes}); untimed, a record is half as long (four longs, two records a cache line).
   */
  BytesCounts(MemoryTracker memory, boolean timed, int maxKeys) {
    if (maxKeys <= 0 || maxKeys >= ID_MASK) {
      throw new IllegalArgumentException("maxKeys out of range: " + maxKeys);
    }
    this.memory = memory;
    this.stride = timed ? TIMED_STRIDE : COUNT + 1;
    this.maxKeys = maxKeys;
    this.records = new long[RECORDS_FROM + 256 * stride];
    memory.add(
        4L * index.length
            + 8L * records.length
            + arena.length
            + 4L * starts.length
            + 4L * slots.length);
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
    int held = size;
    int at = find(bytes, offset, length);
    records[at + COUNT] += count;
    return size != held && full();
  }

  /**
   * Adds one row of {@code time} (epoch microseconds) to the key {@code bytes[offset, offset +
   * length)}: its count, and in a table that {@link #timed keeps times} its least and greatest time
   * (else the time is not read); true when the table is full, as {@link #add}.
   */
  boolean addRow(byte[] bytes, int offset, int length, long time) {
    int held = size;
    addRowAt(find(bytes, offset, length), time);
    return size != held && full();
  }

  /** One row of {@code time} added to the record at {@code at}: its time too where timed. */
  private void addRowAt(int at, long time) {
    long[] records = this.records;
    records[at + COUNT]++;
    if (stride > COUNT + 1) {
      records[at + MIN_TIME] = Math.min(records[at + MIN_TIME], time);
      records[at + MAX_TIME] = Math.max(records[at + MAX_TIME], time);
    }
  }

  /**
   * Whether the table holds as many keys or key bytes as it should before it is handed on (asked
   * when a key was added: a key already held is no news).
   */
  boolean full() {
    return size >= maxKeys || starts[size] >= MAX_ARENA;
  }

  /**
   * Adds one row of {@code times[i]} to each key {@code bytes[starts[i], starts[i] + lengths[i])}
   * for {@code i} in {@code [0, n)}, as {@link #addRow} one by one would, in passes over them all —
   * their hashes, then their index entries, then their records touched, then the rows added — so
   * that the cache misses of many keys are in flight at once rather than one after another. Stops
   * after the key that filled the table: returns how many were added ({@code n} unless full).
   */
  int addRows(byte[] bytes, int[] starts, int[] lengths, long[] times, int n) {
    if (hashes.length < n) {
      hashes = new long[n];
    }
    long[] hashes = this.hashes;
    for (int i = 0; i < n; i++) {
      hashes[i] = KeyWords.hash(bytes, starts[i], lengths[i]);
    }
    int[] index = this.index;
    long[] records = this.records;
    long touched = 0;
    for (int i = 0; i < n; i++) {
      touched += index[slot(hashes[i])];
    }
    for (int i = 0; i < n; i++) {
      int entry = index[slot(hashes[i])];
      if (entry != 0) {
        touched += records[RECORDS_FROM + ((entry & ID_MASK) - 1) * stride];
      }
    }
    sink = touched;
    for (int i = 0; i < n; i++) {
      int held = size;
      int start = starts[i];
      int length = lengths[i];
      long first = KeyWords.firstWord(bytes, start, length);
      addRowAt(
          find(bytes, start, length, first, KeyWords.secondWord(bytes, start, length), hashes[i]),
          times[i]);
      if (size != held && full()) {
        return i + 1;
      }
    }
    return n;
  }

  private long[] hashes = new long[0]; // addRows's, per key of a batch
  private long sink; // what addRows's touching read, kept so that it is not left out

  /** Where the record of the key {@code bytes[offset, offset + length)} starts, made if new. */
  private int find(byte[] bytes, int offset, int length) {
    long first = KeyWords.firstWord(bytes, offset, length);
    long second = KeyWords.secondWord(bytes, offset, length);
    return find(bytes, offset, length, first, second, KeyWords.hash(first, second, length));
  }

  /** As {@link #find(byte[], int, int)}, the key's words and hash {@code h} known. */
  private int find(byte[] bytes, int offset, int length, long first, long second, long h) {
    int tag = tag(h);
    int stride = this.stride;
    for (int slot = slot(h); ; slot = (slot + 1) & mask) {
      int entry = index[slot];
      if (entry == 0) {
        if ((size + 1) * 2 > mask + 1) {
          grow(); // at most half full: probed again in the grown index
          return find(bytes, offset, length, first, second, h);
        }
        int id = insert(bytes, offset, length, slot);
        int at = RECORDS_FROM + id * stride;
        long[] records = this.records;
        records[at] = first;
        records[at + 1] = second;
        records[at + LENGTH] = length;
        records[at + COUNT] = 0;
        if (stride > COUNT + 1) {
          records[at + MIN_TIME] = Long.MAX_VALUE;
          records[at + MAX_TIME] = Long.MIN_VALUE;
        }
        index[slot] = tag | (id + 1);
        return at;
      }
      if ((entry & ~ID_MASK) == tag) {
        int at = RECORDS_FROM + ((entry & ID_MASK) - 1) * stride;
        long[] records = this.records;
        if (records[at] == first
            && records[at + 1] == second
            && records[at + LENGTH] == length
            && (length <= SHORT || sameLong(bytes, offset, length, (entry & ID_MASK) - 1))) {
          return at;
        }
      }
    }
  }

  /** The keys held. */
  int size() {
    return size;
  }

  /** The keys held, in the order they came, as a block of texts; {@link #counts} in the same. */
  BytesBlock values() {
    return values(0, size);
  }

  /** Keys {@code [from, to)} in the order they came (ids), as a block of texts. */
  BytesBlock values(int from, int to) {
    BytesBlock.Builder values = BytesBlock.builder(to - from);
    for (int id = from; id < to; id++) {
      values.append(arena, starts[id], starts[id + 1] - starts[id]);
    }
    return values.build();
  }

  /** The keys' counts, in {@link #values}' order. */
  LongBlock counts() {
    return counts(0, size);
  }

  /** Keys {@code [from, to)}'s counts, as {@link #values(int, int)}. */
  LongBlock counts(int from, int to) {
    return lane(COUNT, DataType.LONG, from, to);
  }

  /** The keys' least times (epoch microseconds), in {@link #values}' order; a timed table's. */
  LongBlock minTimes() {
    return minTimes(0, size);
  }

  /** Keys {@code [from, to)}'s least times, as {@link #values(int, int)}; a timed table's. */
  LongBlock minTimes(int from, int to) {
    return lane(MIN_TIME, DataType.TIMESTAMP, from, to);
  }

  /** The keys' greatest times, in {@link #values}' order; a timed table's. */
  LongBlock maxTimes() {
    return maxTimes(0, size);
  }

  /** Keys {@code [from, to)}'s greatest times, as {@link #values(int, int)}; a timed table's. */
  LongBlock maxTimes(int from, int to) {
    return lane(MAX_TIME, DataType.TIMESTAMP, from, to);
  }

  private LongBlock lane(int lane, DataType type, int from, int to) {
    if (lane >= stride) {
      throw new IllegalStateException("the table keeps no times");
    }
    LongBlock.Builder built = LongBlock.builder(type, to - from);
    for (int id = from; id < to; id++) {
      built.append(records[RECORDS_FROM + id * stride + lane]);
    }
    return built.build();
  }

  /**
   * Holds no key from now on; keeps the memory it grew to. A table of few keys for its index's size
   * empties only the entries they took; a fuller one is emptied whole, in one pass (a write at
   * random per key costs more than one sequential pass once the keys fill a good part of a large
   * index). Records are written anew as keys come.
   */
  void clear() {
    int[] index = this.index;
    if (size * 16L < mask + 1) {
      for (int id = 0; id < size; id++) {
        index[slots[id]] = 0;
      }
    } else {
      Arrays.fill(index, 0);
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

  /** Copies a new key's bytes into the arena and makes room for its record; its id. */
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
    if (RECORDS_FROM + (id + 1) * stride > records.length) {
      memory.add(8L * records.length);
      records = Arrays.copyOf(records, records.length * 2);
    }
    starts[id + 1] = start + length;
    slots[id] = slot;
    size = id + 1;
    return id;
  }

  /** The index doubled, every key's entry placed again from its record. */
  private void grow() {
    int grown = (mask + 1) * 2;
    memory.add(4L * index.length); // the index doubles
    int[] index = new int[grown];
    mask = grown - 1;
    for (int id = 0; id < size; id++) {
      int at = RECORDS_FROM + id * stride;
      long h = KeyWords.hash(records[at], records[at + 1], (int) records[at + LENGTH]);
      int slot = slot(h);
      while (index[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      index[slot] = tag(h) | (id + 1);
      slots[id] = slot;
    }
    this.index = index;
  }

  /** The first index entry to probe for a key of hash {@code h}. */
  private int slot(long h) {
    return (int) (h >>> 32) & mask;
  }

  /** The hash bits an index entry keeps beside the id (not those {@link #slot} uses). */
  private static int tag(long h) {
    return (int) h & ~ID_MASK;
  }
}
