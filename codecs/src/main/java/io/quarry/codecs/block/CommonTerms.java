package io.quarry.codecs.block;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.BytesRef;

/**
 * The entries (term and prefix hashes) a segment's blocks nearly all hold, which its term filters
 * leave out (issue 23): a filter spends {@link TermFilter#BITS_PER_TERM} bits a block on such a
 * term where a list spends 8 bytes a segment. A listed hash is a "maybe" in every block of the
 * segment, so a search for it reads the few blocks without it too (at most {@code 1 - }{@link
 * #SHARE} of them); an unlisted one asks the block's filter. The list is sorted (signed order), in
 * the segment's {@link TermFilterFormat} file.
 *
 * <p>At a flush an entry is listed when at least {@link #SHARE} of the segment's blocks hold it
 * (and the segment has {@link #MIN_BLOCKS} blocks: below, a list costs more than the bits it
 * saves). A merge cannot count terms (a filter holds none): it lists a hash some input lists when
 * at least {@link #SHARE} of the merged blocks may hold it — every block of the inputs listing it,
 * and the blocks of the other inputs whose filters say "maybe" ({@link MergedCommonTerms}) — and
 * the writer adds the hashes an input listed and the merge does not to that input's filters ({@link
 * TermFilter#addTo}), so no block loses a "maybe".
 */
public final class CommonTerms {
  /** The share of a segment's blocks an entry is in to be listed (measured: TermFilterSizes). */
  public static final double SHARE = 0.9;

  /** The fewest blocks of a segment whose entries are listed. */
  public static final int MIN_BLOCKS = 16;

  static final long[] NONE = new long[0];

  private CommonTerms() {}

  /**
   * The list of a segment being flushed, counting the entries of its values in the {@link
   * TermFilterEntries} form (values already filters are not counted, nor among the blocks).
   */
  static long[] count(BinaryDocValues values) throws IOException {
    Counts counts = new Counts();
    int blocks = 0;
    for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
      BytesRef value = values.binaryValue();
      if (TermFilterEntries.is(value)) {
        blocks++;
        for (int i = 0, count = TermFilterEntries.count(value); i < count; i++) {
          counts.add(TermFilterEntries.get(value, i));
        }
      }
    }
    return blocks < MIN_BLOCKS ? NONE : counts.atLeast((int) Math.ceil(SHARE * blocks));
  }

  /**
   * How many blocks hold each distinct hash: open addressing, so a flush takes memory by the
   * segment's distinct entries, not by all of its (term, block) pairs.
   */
  private static final class Counts {
    private long[] keys = new long[1 << 12];
    private int[] counts = new int[1 << 12]; // 0: an empty slot
    private int size;

    void add(long hash) {
      int mask = keys.length - 1;
      int slot = (int) (hash ^ (hash >>> 29)) & mask;
      while (counts[slot] != 0 && keys[slot] != hash) {
        slot = (slot + 1) & mask;
      }
      if (counts[slot]++ == 0) {
        keys[slot] = hash;
        if (++size * 2 > keys.length) {
          grow();
        }
      }
    }

    private void grow() {
      long[] oldKeys = keys;
      int[] oldCounts = counts;
      keys = new long[oldKeys.length * 2];
      counts = new int[oldKeys.length * 2];
      int mask = keys.length - 1;
      for (int i = 0; i < oldKeys.length; i++) {
        if (oldCounts[i] != 0) {
          int slot = (int) (oldKeys[i] ^ (oldKeys[i] >>> 29)) & mask;
          while (counts[slot] != 0) {
            slot = (slot + 1) & mask;
          }
          keys[slot] = oldKeys[i];
          counts[slot] = oldCounts[i];
        }
      }
    }

    /** The hashes held by at least {@code least} blocks, sorted. */
    long[] atLeast(int least) {
      long[] listed = new long[16];
      int n = 0;
      for (int i = 0; i < keys.length; i++) {
        if (counts[i] >= least) {
          if (n == listed.length) {
            listed = Arrays.copyOf(listed, n * 2);
          }
          listed[n++] = keys[i];
        }
      }
      listed = Arrays.copyOf(listed, n);
      Arrays.sort(listed);
      return listed;
    }
  }

  /** The hashes of sorted {@code list} not in sorted {@code kept}. */
  static long[] without(long[] list, long[] kept) {
    long[] left = new long[list.length];
    int n = 0;
    for (long hash : list) {
      if (!contains(kept, hash)) {
        left[n++] = hash;
      }
    }
    return Arrays.copyOf(left, n);
  }

  /** Whether sorted {@code list} holds {@code hash}. */
  public static boolean contains(long[] list, long hash) {
    return list.length > 0 && Arrays.binarySearch(list, hash) >= 0;
  }

  /**
   * A list's hashes in an open-addressing table, for a flush that asks it about every entry of
   * every block: one probe where a binary search of a list of hundreds of hashes took ten
   * unpredictable branches (the largest single cost of a flush's filters, session 40's profile).
   */
  static final class Lookup {
    private final long[] keys; // a free slot holds FREE; FREE itself, when listed, is freeListed
    private final int mask;
    private final boolean freeListed;

    private static final long FREE = 0;

    Lookup(long[] list) {
      int capacity = Integer.highestOneBit(Math.max(4, list.length) * 4 - 1);
      keys = new long[capacity];
      mask = capacity - 1;
      boolean free = false;
      for (long hash : list) {
        if (hash == FREE) {
          free = true;
          continue;
        }
        int slot = slot(hash);
        while (keys[slot] != FREE && keys[slot] != hash) {
          slot = (slot + 1) & mask;
        }
        keys[slot] = hash;
      }
      freeListed = free;
    }

    private int slot(long hash) {
      long mixed = hash * 0x9E3779B97F4A7C15L;
      return (int) (mixed >>> 32) & mask;
    }

    /** Whether the list holds {@code hash}. */
    boolean contains(long hash) {
      if (hash == FREE) {
        return freeListed;
      }
      for (int slot = slot(hash); ; slot = (slot + 1) & mask) {
        long key = keys[slot];
        if (key == hash) {
          return true;
        }
        if (key == FREE) {
          return false;
        }
      }
    }
  }
}
