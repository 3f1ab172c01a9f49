package io.quarry.ql.engine.aggregation;

import io.quarry.ql.engine.BytePool;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * Another hash's keys merged into a {@link BytesKeyHash} partition by partition, each partition a
 * task of {@link SharedTasks} (the final merge of a search's partials: 200,000 session ids looked
 * up on one thread were the last part of the merge that did not share). Both hashes are split
 * ({@link BytesKeyHash#split}) by the same hash bits, so partition {@code p} of the other hash
 * meets only partition {@code p} here, and each task writes only its own table:
 *
 * <ol>
 *   <li>each task walks the other's table {@code p} slot by slot — its keys' hashes and first 16
 *       bytes are in the slots, and both tables are in home order, so the walk and the probes go
 *       through memory nearly in order — and finds each key here or fills the free slot with the
 *       key's hash, bytes and a provisional id naming the other's key ({@link
 *       BytesKeyHash#merging}; the other's keys are distinct, so no key is added twice);
 *   <li>the caller numbers the new keys (partition after partition, so ids stay dense) and reserves
 *       their bytes in the pool, with no task running;
 *   <li>each task copies its new keys' bytes into their places and writes their ids into its slots.
 * </ol>
 *
 * Every key of the other hash gets its id here in {@code ids} by its id there: the states are then
 * merged as a chunked merge merges them ({@link GroupingFunction#mergePage}).
 */
final class KeyMerge {
  private static final int MERGING = Integer.MIN_VALUE; // the id field of a key being added

  private final BytesKeyHash into;
  private final BytesKeyHash from;
  private final int[] ids;
  private final int[][] added; // per partition: the other's ids of the keys added here
  private final int[][] slots; // and the slots they went to
  private final int[] addedCount;
  private final int[] firstId; // per partition: its first new key's id

  private KeyMerge(BytesKeyHash into, BytesKeyHash from, int[] ids) {
    this.into = into;
    this.from = from;
    this.ids = ids;
    this.added = new int[BytesKeyHash.PARTS][];
    this.slots = new int[BytesKeyHash.PARTS][];
    this.addedCount = new int[BytesKeyHash.PARTS];
    this.firstId = new int[BytesKeyHash.PARTS];
  }

  /**
   * Adds {@code from}'s keys to {@code into} with up to {@code helpers} threads of {@code parallel}
   * besides the caller ({@code parallel} null: on the caller alone); key {@code j} of {@code from}
   * has id {@code ids[j]} in {@code into} afterwards. Once {@code stop} says so no further task
   * starts and a {@link java.util.concurrent.CancellationException} is thrown, {@code into} left
   * unusable (to be dropped).
   */
  static void run(
      BytesKeyHash into,
      BytesKeyHash from,
      int[] ids,
      Executor parallel,
      int helpers,
      BooleanSupplier stop) {
    into.split();
    from.split();
    new KeyMerge(into, from, ids).run(parallel, helpers, stop);
  }

  private void run(Executor parallel, int helpers, BooleanSupplier stop) {
    into.merging = from;
    try {
      SharedTasks.run(BytesKeyHash.PARTS, this::find, parallel, helpers, stop);
      number();
      SharedTasks.run(BytesKeyHash.PARTS, this::copy, parallel, helpers, stop);
    } finally {
      into.merging = null;
    }
  }

  /** Step 1 for partition {@code p}: each of the other's keys found here, or its slot taken. */
  private void find(int p) {
    KeyTable mine = into.parts[p];
    KeyTable theirs = from.parts[p];
    mine.reserve(mine.size() + theirs.size()); // no rehash below: the slots taken stay
    int[] addedHere = new int[theirs.size()];
    int[] slotsHere = new int[theirs.size()];
    int n = 0;
    for (int i = 0; i < theirs.slots(); i++) {
      long entry = theirs.entry(i);
      if (entry == 0) {
        continue;
      }
      int hash = (int) (entry >>> 32);
      int j = (int) entry - 1;
      long first = theirs.word(i, 0);
      long second = theirs.word(i, 1);
      int length = theirs.length(i);
      byte[] bytes = null;
      int offset = 0;
      if (length > BytesKeyHash.INLINE) {
        int start = from.starts.get(j);
        bytes = from.pool.page(start);
        offset = BytePool.offset(start) + BytesKeyHash.HEADER;
      }
      int slot = mine.slot(hash, first, second, length, into, bytes, offset);
      if (slot >= 0) {
        ids[j] = (int) mine.entry(slot) - 1;
      } else {
        slot = -slot - 1;
        mine.put(slot, ((long) hash << 32) | ((MERGING | j) & 0xFFFF_FFFFL), first, second, length);
        addedHere[n] = j;
        slotsHere[n++] = slot;
      }
    }
    added[p] = addedHere;
    slots[p] = slotsHere;
    addedCount[p] = n;
  }

  /** Step 2, on the caller: the new keys' ids and their places in the pool. */
  private void number() {
    int id = into.size;
    int total = 0;
    for (int count : addedCount) {
      total += count;
    }
    into.starts.grow(id + total);
    for (int p = 0; p < BytesKeyHash.PARTS; p++) {
      firstId[p] = id;
      for (int k = 0; k < addedCount[p]; k++) {
        into.starts.set(id++, into.pool.reserve(BytesKeyHash.HEADER + from.length(added[p][k])));
      }
    }
    into.size = id;
  }

  /** Step 3 for partition {@code p}: the new keys' bytes copied, their ids written. */
  private void copy(int p) {
    KeyTable mine = into.parts[p];
    int[] addedHere = added[p];
    int[] slotsHere = slots[p];
    for (int k = 0; k < addedCount[p]; k++) {
      int j = addedHere[k];
      int id = firstId[p] + k;
      int theirStart = from.starts.get(j);
      byte[] theirPage = from.pool.page(theirStart);
      int theirHeader = BytePool.offset(theirStart);
      int length = (int) BytesKeyHash.INTS.get(theirPage, theirHeader);
      int start = into.starts.get(id);
      byte[] page = into.pool.page(start);
      int header = BytePool.offset(start);
      BytesKeyHash.INTS.set(page, header, length);
      BytesKeyHash.INTS.set(page, header + Integer.BYTES, id);
      System.arraycopy(
          theirPage, theirHeader + BytesKeyHash.HEADER, page, header + BytesKeyHash.HEADER, length);
      long entry = mine.entry(slotsHere[k]);
      mine.setEntry(slotsHere[k], (entry & 0xFFFF_FFFF_0000_0000L) | (id + 1));
      ids[j] = id;
    }
    added[p] = null;
    slots[p] = null;
  }
}
