package io.quarry.ql.engine.aggregation;

import io.quarry.ql.engine.BytePool;
import io.quarry.ql.engine.IntPages;
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
 * <p>Once it holds {@link #SPLIT} keys the table is split into {@link #PARTS} tables by the top
 * bits of the keys' hashes ({@link KeyTable}, one per partition; ids stay dense over all of them):
 * two hashes of the same query then merge partition by partition, each partition on its own thread
 * ({@link KeyMerge}, the final merge of a search's partials), and a small {@code stats count by
 * status} never splits.
 *
 * <p>The tables, the pool and the keys' starts are paged ({@link io.quarry.ql.engine.LongPages},
 * {@link BytePool}, {@link IntPages}): none is ever an object G1 allocates as humongous, and the
 * pool and the starts grow by a page, not by a copy (a hash of 200,000 keys was ~20 MiB of such
 * arrays, copied at each doubling, in every partial of a search); a table doubles in place. A key's
 * bytes never cross a pool page. Not thread-safe, but for {@link KeyMerge}'s partitions.
 */
public final class BytesKeyHash {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  static final int HEADER = 2 * Integer.BYTES; // a key's length, then its id
  static final int INLINE = 2 * Long.BYTES; // key bytes a slot holds

  /** Keys from which the table is split into {@link #PARTS} partitions. */
  static final int SPLIT = AggregationOutput.PARALLEL_GROUPS;

  /** Bits of the partition number: partitions ≈ 2 × the processors, a power of two, 2 to 16. */
  static final int PART_BITS =
      Integer.numberOfTrailingZeros(
          Integer.highestOneBit(
              Math.clamp(2L * Runtime.getRuntime().availableProcessors(), 2, 16)));

  /** The partitions of a split hash. */
  static final int PARTS = 1 << PART_BITS;

  /** Bytes a key costs beyond its own: table slots at half load, its start, its string later. */
  static final long KEY_OVERHEAD_BYTES =
      2 * KeyTable.SLOT * Long.BYTES + Integer.BYTES + HEADER + 8;

  KeyTable[] parts = {new KeyTable(64)}; // one, or PARTS once split
  int bits; // 0, or PART_BITS once split
  final BytePool pool = new BytePool(); // per key: length, id, bytes
  final IntPages starts = new IntPages(32); // key id's pool address (its length's)
  private String[] decoded = new String[0]; // made by the first {@link #key} call
  int size;

  /**
   * While {@link KeyMerge} runs: the hash merged from, whose key {@code j} a table entry whose id
   * field is {@code 0x80000000 | j} stands for until the key is copied here.
   */
  BytesKeyHash merging;

  /** The partition of a hash among {@code 1 << bits}: its top bits. */
  static int part(int hash, int bits) {
    return bits == 0 ? 0 : hash >>> (Integer.SIZE - bits);
  }

  /** The id of a key: {@code id >= 0} when it was there, {@code -id - 1} for a new one. */
  public int id(byte[] bytes, int offset, int length) {
    return id(bytes, offset, length, hash(bytes, offset, length));
  }

  /** The id of a key, or -1 when it is not there (nothing added: a join's probe side). */
  public int find(byte[] bytes, int offset, int length) {
    int hash = hash(bytes, offset, length);
    KeyTable table = parts[part(hash, bits)];
    int slot = slot(table, bytes, offset, length, hash);
    return slot < 0 ? -1 : (int) table.entry(slot) - 1;
  }

  private int[] hashes = new int[0];
  private int[] offsets = new int[0];
  private int[] lengths = new int[0];
  private byte[][] arrays = new byte[0][]; // a merge's keys: the pool page each lies in
  private final io.quarry.plugin.api.data.ByteSlice slice =
      new io.quarry.plugin.api.data.ByteSlice();

  /**
   * The ids of positions {@code [0, count)} of a block without multivalues into {@code ids} ({@code
   * -1} for a null position), new keys added. Every key is hashed first and then looked up, so the
   * lookups — each a likely cache miss with many groups — do not wait on one another's work.
   */
  void ids(io.quarry.plugin.api.data.BytesBlock block, int count, int[] ids) {
    if (hashes.length < count) {
      hashes = new int[count];
      offsets = new int[count];
      lengths = new int[count];
    }
    byte[] bytes = null;
    for (int p = 0; p < count; p++) {
      if (block.isNull(p)) {
        lengths[p] = -1;
        continue;
      }
      block.getBytes(p, slice);
      bytes = slice.bytes();
      offsets[p] = slice.offset();
      lengths[p] = slice.length();
      hashes[p] = hash(bytes, offsets[p], lengths[p]);
    }
    touchSlots(count);
    for (int p = 0; p < count; p++) {
      if (lengths[p] < 0) {
        ids[p] = -1;
      } else {
        int id = id(bytes, offsets[p], lengths[p], hashes[p]);
        ids[p] = id >= 0 ? id : -id - 1;
      }
    }
  }

  /**
   * Reads the first slot each of the page's keys probes, in a loop whose loads wait on nothing: the
   * cache misses of a page's lookups — one each, with more groups than the caches hold — are then
   * in flight together instead of one after another behind the probe loop's branches on the loaded
   * slots. What it reads is kept only so the loads are not dropped.
   */
  private void touchSlots(int count) {
    KeyTable[] tables = parts;
    int bits = this.bits;
    long sum = 0;
    for (int p = 0; p < count; p++) {
      sum += tables[part(hashes[p], bits)].touch(hashes[p]);
    }
    touched = sum;
  }

  @SuppressWarnings("unused") // written so the touching loads stay
  private long touched;

  private int id(byte[] bytes, int offset, int length, int hash) {
    KeyTable table = parts[part(hash, bits)];
    int slot = slot(table, bytes, offset, length, hash);
    return slot >= 0
        ? (int) table.entry(slot) - 1
        : -insert(table, -slot - 1, hash, bytes, offset, length) - 1;
  }

  /** Where the key is in {@code table} ({@code >= 0}), or {@code -slot - 1} where it would go. */
  private int slot(KeyTable table, byte[] bytes, int offset, int length, int hash) {
    return table.slot(
        hash,
        word(bytes, offset, length, 0),
        word(bytes, offset, length, Long.BYTES),
        length,
        this,
        bytes,
        offset);
  }

  /**
   * Whether the key of a table entry has {@code bytes[offset + 16, + length)} after its first 16
   * bytes: a key here, or one {@link KeyMerge} is adding from {@link #merging}.
   */
  boolean sameTail(long entry, byte[] bytes, int offset, int length) {
    int id = (int) entry - 1;
    BytesKeyHash keys = this;
    if ((int) entry < 0) {
      keys = merging;
      id = (int) entry & Integer.MAX_VALUE;
    }
    int start = keys.starts.get(id);
    return same(
        keys.pool.page(start),
        BytePool.offset(start) + HEADER + INLINE,
        bytes,
        offset + INLINE,
        length - INLINE);
  }

  /** The key's bytes {@code [at, at + 8)} as a little-endian word, zero past its end. */
  static long word(byte[] bytes, int offset, int length, int at) {
    if (at + Long.BYTES <= length) {
      return (long) LONGS.get(bytes, offset + at);
    }
    return at < length ? tail(bytes, offset + at, length - at) : 0;
  }

  /**
   * The {@code n < 8} bytes at {@code bytes[from]} as a little-endian word, zero above them: one
   * load and a mask where the array holds eight bytes from there (a key inside a block's bytes, or
   * the pool, nearly always does), else byte by byte — a 14-byte session id's last six bytes were
   * six loads and shifts per lookup, twice (the hash, then the slot's second word).
   */
  private static long tail(byte[] bytes, int from, int n) {
    if (n == 0) {
      return 0;
    }
    if (from + Long.BYTES <= bytes.length) {
      return (long) LONGS.get(bytes, from) & (-1L >>> (Long.SIZE - Byte.SIZE * n));
    }
    long word = 0;
    for (int i = 0; i < n; i++) {
      word |= (bytes[from + i] & 0xFFL) << (Byte.SIZE * i);
    }
    return word;
  }

  /**
   * Whether {@code a[aFrom, +length)} and {@code b[bFrom, +length)} hold the same bytes: eight at a
   * time, for the short keys groups have ({@code Arrays.equals} over ranges costs a call and its
   * checks per key, a tenth of a 200,000-group aggregation).
   */
  private static boolean same(byte[] a, int aFrom, byte[] b, int bFrom, int length) {
    int i = 0;
    for (; i + Long.BYTES <= length; i += Long.BYTES) {
      if ((long) LONGS.get(a, aFrom + i) != (long) LONGS.get(b, bFrom + i)) {
        return false;
      }
    }
    for (; i < length; i++) {
      if (a[aFrom + i] != b[bFrom + i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * The ids here of another hash's keys {@code [from, from + count)} into {@code ids[0, count)},
   * new ones added: as {@link #ids(io.quarry.plugin.api.data.BytesBlock, int, int[])}, hashed first
   * and every first slot read before the lookups, so a merge's misses overlap.
   */
  void idsOf(BytesKeyHash other, int from, int count, int[] ids) {
    if (hashes.length < count) {
      hashes = new int[count];
      offsets = new int[count];
      lengths = new int[count];
    }
    if (arrays.length < count) {
      arrays = new byte[count][];
    }
    for (int i = 0; i < count; i++) {
      int start = other.starts.get(from + i);
      arrays[i] = other.pool.page(start);
      offsets[i] = BytePool.offset(start) + HEADER;
      lengths[i] = other.length(from + i);
      hashes[i] = hash(arrays[i], offsets[i], lengths[i]);
    }
    touchSlots(count);
    for (int i = 0; i < count; i++) {
      int id = id(arrays[i], offsets[i], lengths[i], hashes[i]);
      ids[i] = id >= 0 ? id : -id - 1;
    }
    Arrays.fill(arrays, 0, count, null); // the other hash's pages are not kept alive from here
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

  /** Forgets every key. */
  void clear() {
    parts = new KeyTable[] {new KeyTable(64)};
    bits = 0;
    Arrays.fill(decoded, 0, Math.min(size, decoded.length), null);
    size = 0;
    pool.clear();
  }

  private int insert(KeyTable table, int slot, int hash, byte[] bytes, int offset, int length) {
    int id = size++;
    starts.grow(size);
    int address = pool.reserve(HEADER + length);
    byte[] page = pool.page(address);
    int header = BytePool.offset(address);
    INTS.set(page, header, length);
    INTS.set(page, header + Integer.BYTES, id);
    System.arraycopy(bytes, offset, page, header + HEADER, length);
    starts.set(id, address);
    table.put(
        slot,
        ((long) hash << 32) | (id + 1),
        word(bytes, offset, length, 0),
        word(bytes, offset, length, Long.BYTES),
        length);
    if (bits == 0 && size >= SPLIT) {
      split();
    }
    return id;
  }

  /** Splits the table into {@link #PARTS} by the hashes' top bits (nothing when already split). */
  void split() {
    if (bits != 0) {
      return;
    }
    KeyTable whole = parts[0];
    KeyTable[] split = new KeyTable[PARTS];
    for (int p = 0; p < PARTS; p++) {
      split[p] = new KeyTable(2 * (whole.size() >> PART_BITS));
      split[p].placeAll(whole, p, PART_BITS);
    }
    parts = split;
    bits = PART_BITS;
  }

  /** A hash of the bytes, eight at a time, finished with a 64-bit mix. */
  static int hash(byte[] bytes, int offset, int length) {
    long h = length * 0x9E3779B97F4A7C15L;
    int i = offset;
    int end = offset + length;
    for (; i + Long.BYTES <= end; i += Long.BYTES) {
      h = (h ^ (long) LONGS.get(bytes, i)) * 0xC2B2AE3D27D4EB4FL;
      h = Long.rotateLeft(h, 31);
    }
    h = (h ^ tail(bytes, i, end - i)) * 0xBF58476D1CE4E5B9L;
    h ^= h >>> 31;
    h *= 0x94D049BB133111EBL;
    return (int) (h ^ (h >>> 32));
  }
}
