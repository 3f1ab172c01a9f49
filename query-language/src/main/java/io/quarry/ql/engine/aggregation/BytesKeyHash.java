package io.quarry.ql.engine.aggregation;

import io.quarry.ql.engine.BytePool;
import io.quarry.ql.engine.IntPages;
import io.quarry.ql.engine.LongPages;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Dense group ids for keys given as UTF-8 bytes — a value read from a block without a {@code
 * String} — as Lucene's {@code BytesRefHash} keeps terms: an open-addressing table whose slots hold
 * a key's hash and id, its first 16 bytes and its length, and the keys back to back in one byte
 * pool, each after its length and id, with their starts by id. A lookup hashes the bytes eight at a
 * time and reads one slot: a key of up to 16 bytes (a session id, an IP address) is compared there
 * whole, so a lookup among 200,000 groups costs one cache miss, not two (a slot, then the pool: a
 * fifth fewer lookup samples in {@code sessions_range}); only a longer key compares the rest of its
 * bytes in the pool. No object per key, so 200,000 session ids are a few arrays, not 200,000
 * strings scattered over the heap. Keys are decoded to strings only when asked for ({@link #key},
 * at the end). Keys are removed only all at once.
 *
 * <p>The table, the pool and the keys' starts are paged ({@link LongPages}, {@link BytePool},
 * {@link IntPages}): none is ever an object G1 allocates as humongous, and the pool and the starts
 * grow by a page, not by a copy (a hash of 200,000 keys was ~20 MiB of such arrays, copied at each
 * doubling, in every partial of a search); the table doubles in place ({@link KeySlots#rehash}). A
 * key's table slot never crosses a table page, and its bytes never cross a pool page. Not
 * thread-safe.
 */
public final class BytesKeyHash {
  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final int HEADER = 2 * Integer.BYTES; // a key's length, then its id
  private static final int SLOT = KeySlots.SLOT; // longs per table slot
  private static final int INLINE = 2 * Long.BYTES; // key bytes a slot holds

  /** Bytes a key costs beyond its own: table slots at half load, its start, its string later. */
  static final long KEY_OVERHEAD_BYTES = 2 * SLOT * Long.BYTES + Integer.BYTES + HEADER + 8;

  /**
   * Per slot {@link #SLOT} longs: {@code (hash << 32) | (id + 1)} (0: an empty slot), the key's
   * first 16 bytes as two little-endian words (zero past its end), and its length. A key of up to
   * 16 bytes — a session id, an IP address — is found and compared in its slot alone, without a
   * second cache miss in the pool; a longer one compares the rest of its bytes there.
   */
  private final LongPages table = new LongPages(SLOT * 64);

  private final BytePool pool = new BytePool(); // per key: length, id, bytes
  private final IntPages starts = new IntPages(32); // key id's pool address (its length's)
  private String[] decoded = new String[0]; // made by the first {@link #key} call
  private int size;

  private int indexed; // keys [0, indexed) are in the table; the rest only in the pool
  private int[] likelyOrder; // the ids in the answer's order if their source was sorted; or null

  /** The id of a key: {@code id >= 0} when it was there, {@code -id - 1} for a new one. */
  public int id(byte[] bytes, int offset, int length) {
    index();
    return id(bytes, offset, length, KeyWords.hash(bytes, offset, length));
  }

  /** The id of a key, or -1 when it is not there (nothing added: a join's probe side). */
  public int find(byte[] bytes, int offset, int length) {
    index();
    int slot = slot(bytes, offset, length, KeyWords.hash(bytes, offset, length));
    return slot < 0 ? -1 : (int) table.get(slot) - 1;
  }

  private int[] hashes = new int[0];
  private int[] offsets = new int[0];
  private int[] lengths = new int[0];
  private byte[][] arrays = new byte[0][]; // a batch's keys: the array each lies in
  private final io.quarry.plugin.api.data.ByteSlice slice =
      new io.quarry.plugin.api.data.ByteSlice();

  /**
   * The ids of positions {@code [0, count)} of a block without multivalues into {@code ids} ({@code
   * -1} for a null position), new keys added. Every key is hashed first and then looked up, so the
   * lookups — each a likely cache miss with many groups — do not wait on one another's work.
   */
  void ids(io.quarry.plugin.api.data.BytesBlock block, int count, int[] ids) {
    prepare(count);
    for (int p = 0; p < count; p++) {
      if (block.isNull(p)) {
        lengths[p] = -1;
        continue;
      }
      block.getBytes(p, slice);
      arrays[p] = slice.bytes();
      offsets[p] = slice.offset();
      lengths[p] = slice.length();
      hashes[p] = KeyWords.hash(arrays[p], offsets[p], lengths[p]);
    }
    lookUpPrepared(count, ids);
  }

  /**
   * The ids of entries {@code entries[from, from + count)} of a string block (a dictionary) into
   * {@code ids[0, count)}, new keys added: as {@link #ids(io.quarry.plugin.api.data.BytesBlock,
   * int, int[])}, hashed first and every first slot read before the lookups.
   */
  void entryIds(
      io.quarry.plugin.api.data.BytesBlock dictionary,
      int[] entries,
      int from,
      int count,
      int[] ids) {
    prepare(count);
    for (int i = 0; i < count; i++) {
      dictionary.getBytes(entries[from + i], slice);
      arrays[i] = slice.bytes();
      offsets[i] = slice.offset();
      lengths[i] = slice.length();
      hashes[i] = KeyWords.hash(arrays[i], offsets[i], lengths[i]);
    }
    lookUpPrepared(count, ids);
  }

  /** Makes room for a batch of {@code count} keys' hashes, arrays, offsets and lengths. */
  private void prepare(int count) {
    if (hashes.length < count) {
      hashes = new int[count];
      offsets = new int[count];
      lengths = new int[count];
    }
    if (arrays.length < count) {
      arrays = new byte[count][];
    }
  }

  /**
   * Looks the batch's keys up (a negative length: none, id -1), every first slot read first; the
   * batch's arrays are not kept alive from here.
   */
  private void lookUpPrepared(int count, int[] ids) {
    index();
    touchSlots(count);
    for (int i = 0; i < count; i++) {
      if (lengths[i] < 0) {
        ids[i] = -1;
      } else {
        int id = id(arrays[i], offsets[i], lengths[i], hashes[i]);
        ids[i] = id >= 0 ? id : -id - 1;
      }
    }
    Arrays.fill(arrays, 0, count, null);
  }

  /**
   * Reads the first slot each of the page's keys probes, in a loop whose loads wait on nothing: the
   * cache misses of a page's lookups — one each, with more groups than the caches hold — are then
   * in flight together instead of one after another behind the probe loop's branches on the loaded
   * slots. What it reads is kept only so the loads are not dropped.
   */
  private void touchSlots(int count) {
    LongPages slots = table;
    int mask = slots.capacity() / SLOT - 1;
    long sum = 0;
    for (int p = 0; p < count; p++) {
      sum += slots.get((hashes[p] & mask) * SLOT);
    }
    touched = sum;
  }

  @SuppressWarnings("unused") // written so the touching loads stay
  private long touched;

  private int id(byte[] bytes, int offset, int length, int hash) {
    int slot = slot(bytes, offset, length, hash);
    return slot >= 0
        ? (int) table.get(slot) - 1
        : -insert(-slot - 1, hash, bytes, offset, length) - 1;
  }

  /**
   * Where the key is in the table ({@code >= 0}), or {@code -slot - 1} for the empty slot where it
   * would go.
   */
  private int slot(byte[] bytes, int offset, int length, int hash) {
    long first = KeyWords.word(bytes, offset, length, 0);
    long second = KeyWords.word(bytes, offset, length, Long.BYTES);
    int mask = table.capacity() / SLOT - 1;
    for (int i = hash & mask; ; i = (i + 1) & mask) {
      int slot = i * SLOT;
      long[] page = table.page(slot);
      int at = LongPages.offset(slot);
      long entry = page[at];
      if (entry == 0) {
        return -slot - 1;
      }
      if ((int) (entry >>> 32) == hash
          && page[at + 1] == first
          && page[at + 2] == second
          && page[at + 3] == length
          && (length <= INLINE || sameTail((int) entry - 1, bytes, offset, length))) {
        return slot;
      }
    }
  }

  /** Whether key {@code id}'s bytes after its first 16 are {@code bytes[offset + 16, + length)}. */
  private boolean sameTail(int id, byte[] bytes, int offset, int length) {
    int start = starts.get(id);
    return KeyWords.same(
        pool.page(start),
        BytePool.offset(start) + HEADER + INLINE,
        bytes,
        offset + INLINE,
        length - INLINE);
  }

  /**
   * The ids here of another hash's keys {@code [from, from + count)} into {@code ids[0, count)},
   * new ones added: as {@link #ids(io.quarry.plugin.api.data.BytesBlock, int, int[])}, hashed first
   * and every first slot read before the lookups, so a merge's misses overlap.
   */
  void idsOf(BytesKeyHash other, int from, int count, int[] ids) {
    prepare(count);
    for (int i = 0; i < count; i++) {
      int start = other.starts.get(from + i);
      arrays[i] = other.pool.page(start);
      offsets[i] = BytePool.offset(start) + HEADER;
      lengths[i] = other.length(from + i);
      hashes[i] = KeyWords.hash(arrays[i], offsets[i], lengths[i]);
    }
    lookUpPrepared(count, ids); // the other hash's pages are not kept alive from here
  }

  /** The id of another hash's key {@code otherId} (see {@link #id(byte[], int, int)}). */
  int idOf(BytesKeyHash other, int otherId) {
    int start = other.starts.get(otherId);
    return id(other.pool.page(start), BytePool.offset(start) + HEADER, other.length(otherId));
  }

  /** The id of a key given as text. */
  int id(String key) {
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    return id(bytes, 0, bytes.length);
  }

  /** The key of a group id as text. */
  String key(int id) {
    if (decoded.length < size) {
      decoded = Arrays.copyOf(decoded, Math.max(size, decoded.length * 2));
    }
    String key = decoded[id];
    if (key == null) {
      int start = starts.get(id);
      key =
          new String(
              pool.page(start),
              BytePool.offset(start) + HEADER,
              length(id),
              StandardCharsets.UTF_8);
      decoded[id] = key;
    }
    return key;
  }

  /** Appends a key's bytes to a string block. */
  void appendKey(int id, io.quarry.plugin.api.data.BytesBlock.Builder into) {
    int start = starts.get(id);
    byte[] page = pool.page(start);
    int header = BytePool.offset(start);
    into.append(page, header + HEADER, (int) INTS.get(page, header));
  }

  /** Points {@code into} at a key's bytes in the pool (valid until the next key is added). */
  void bytes(int id, io.quarry.plugin.api.data.ByteSlice into) {
    int start = starts.get(id);
    byte[] page = pool.page(start);
    int header = BytePool.offset(start);
    into.reset(page, header + HEADER, (int) INTS.get(page, header));
  }

  /** The UTF-8 length of a key. */
  int length(int id) {
    int start = starts.get(id);
    return (int) INTS.get(pool.page(start), BytePool.offset(start));
  }

  /** The number of keys; ids are {@code [0, size)}. */
  int size() {
    return size;
  }

  /**
   * The keys never put into the table: added by {@link #appendDistinct} with no lookup since (a
   * lookup puts them all in, {@link #index}).
   */
  int unindexed() {
    return size - indexed;
  }

  /** Forgets every key. */
  void clear() {
    table.fill(0, table.capacity(), 0);
    Arrays.fill(decoded, 0, Math.min(size, decoded.length), null);
    size = 0;
    indexed = 0;
    likelyOrder = null;
    pool.clear();
  }

  /**
   * Adds entries {@code entries[from, from + count)} of a string block (a dictionary), distinct
   * entries none of which is here — the caller's promise, not checked — as keys {@code size() …} in
   * that order, without hashing them: they go to the pool only, and into the table at the first
   * lookup ({@link #index}), which an answer read straight after never makes ({@link
   * EntryPartial}'s groups handed to an empty aggregation at the end of a search).
   */
  void appendDistinct(
      io.quarry.plugin.api.data.BytesBlock dictionary, int[] entries, int from, int count) {
    likelyOrder = null;
    for (int i = from; i < from + count; i++) {
      dictionary.getBytes(entries[i], slice);
      append(slice.bytes(), slice.offset(), slice.length());
    }
  }

  /**
   * Remembers {@code ids} (every id once) as the order the keys are likely answered in — the order
   * of their entries in a dictionary that is probably sorted — for {@link GroupOrder} to check
   * rather than sort; forgotten when a key is added.
   */
  void likelyOrder(int[] ids) {
    likelyOrder = ids;
  }

  /** The order given to {@link #likelyOrder(int[])} while no key was added since; else null. */
  int[] likelyOrder() {
    return likelyOrder;
  }

  /** Puts the keys added by {@link #appendDistinct} into the table (a lookup is about to run). */
  private void index() {
    if (indexed == size) {
      return;
    }
    growFor(size);
    int mask = table.capacity() / SLOT - 1;
    for (int id = indexed; id < size; id++) {
      int start = starts.get(id);
      byte[] bytes = pool.page(start);
      int offset = BytePool.offset(start) + HEADER;
      int length = (int) INTS.get(bytes, BytePool.offset(start));
      int hash = KeyWords.hash(bytes, offset, length);
      KeySlots.place(
          table,
          ((long) hash << 32) | (id + 1),
          KeyWords.word(bytes, offset, length, 0),
          KeyWords.word(bytes, offset, length, Long.BYTES),
          length,
          mask);
    }
    indexed = size;
  }

  /**
   * Makes the table as large as holding {@code keys} keys in all makes it, before that many are
   * added (as Lucene's and ES|QL's {@code BytesRefHash} are grown before a known number of
   * inserts): the table inserting them would have grown to, its doublings done now — at once, with
   * nothing to place again, when the table holds no key yet. Fewer keys than it holds: nothing.
   */
  public void reserve(int keys) {
    growFor(Math.max(keys, size));
  }

  /** The table's slots (its size, for tests of its growth). */
  int slots() {
    return table.capacity() / SLOT;
  }

  /**
   * Grows the table to the capacity that holds {@code keys} keys at half load (the one {@link
   * #insert} doubles to): in one step when no key is in it yet, else doubling in place.
   */
  private void growFor(int keys) {
    int capacity = table.capacity();
    while ((long) keys * 2 * SLOT > capacity) {
      capacity *= 2;
    }
    if (capacity > table.capacity()) {
      if (indexed == 0) {
        table.grow(capacity); // an empty table: nothing to place again
      } else {
        while (table.capacity() < capacity) {
          KeySlots.rehash(table);
        }
      }
    }
  }

  /** Writes a key to the pool as key {@code size}, not into the table; returns its id. */
  private int append(byte[] bytes, int offset, int length) {
    int id = size++;
    starts.grow(size);
    int address = pool.reserve(HEADER + length);
    byte[] page = pool.page(address);
    int header = BytePool.offset(address);
    INTS.set(page, header, length);
    INTS.set(page, header + Integer.BYTES, id);
    System.arraycopy(bytes, offset, page, header + HEADER, length);
    starts.set(id, address);
    return id;
  }

  private int insert(int slot, int hash, byte[] bytes, int offset, int length) {
    int id = append(bytes, offset, length);
    indexed = size;
    likelyOrder = null;
    long[] slots = table.page(slot);
    int at = LongPages.offset(slot);
    slots[at] = ((long) hash << 32) | (id + 1);
    slots[at + 1] = KeyWords.word(bytes, offset, length, 0);
    slots[at + 2] = KeyWords.word(bytes, offset, length, Long.BYTES);
    slots[at + 3] = length;
    if ((long) size * 2 * SLOT > table.capacity()) {
      KeySlots.rehash(table);
    }
    return id;
  }
}
