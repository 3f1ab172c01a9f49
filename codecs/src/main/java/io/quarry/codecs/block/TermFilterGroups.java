package io.quarry.codecs.block;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.MergeState;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BytesRef;

/**
 * The groups of a field's blocks in a {@link TermFilterFormat} file (version 2, session 31): runs
 * of up to {@link #BLOCKS} consecutive documents, each with a {@link TermFilter} of its own over
 * the distinct entries of its blocks (the segment's {@link CommonTerms} left out), each entry held
 * as its {@link TermFilter#groupHash}. A probe asks a block's group first and the block's own
 * filter only when the group says "maybe": a rare term reads one group filter per {@link #BLOCKS}
 * blocks and the blocks of the few groups that say "maybe" for nothing. The two filters' false
 * "maybe"s multiply, so a grouped block's own filter is written thinner ({@link #BLOCK_BITS} bits
 * an entry against {@link TermFilter#BITS_PER_TERM}): the groups hold about a third of their
 * blocks' entries (an access log's terms that are neither in every block nor in one only recur
 * within a group), so both levels together take fewer bytes than the single one did (measured:
 * {@code benchmarks.TermFilterSizes}, docs/design/block-index.md).
 *
 * <pre>
 * Groups := (First(int) End(int) FilterEnd(long))^Groups GroupFilter^Groups
 * </pre>
 *
 * Little-endian, after the field's common terms. Group {@code g} covers the documents {@code
 * [First, End)}: {@code First} ascending, {@code End} above {@code First}, a group beginning at or
 * after the previous one's {@code End}, none past the segment's last document; a document in no
 * group is asked of its own filter alone. Its filter is the bytes from the previous group's {@code
 * FilterEnd} (0 for the first) to its own, counted from the end of the table. A flush groups the
 * documents whose values it builds filters of, {@link #BLOCKS} at a time in document order (a value
 * handed over as a filter already ends the group before it and joins none). A merge cannot build a
 * group (the inputs hold filters, not entries): it carries each input's groups over, each covering
 * the merged documents of its live ones, with the hashes the input listed as common and the merge
 * does not added to its filter as to its blocks'; segments merged with an index sort (which
 * interleaves the inputs; block buckets of layout 3 have none) or from inputs without groups get
 * none for those documents, whose own filters then answer alone.
 */
public final class TermFilterGroups {
  /**
   * The most documents a flush puts in one group: 16 since session 39 (64 before; the format does
   * not record it, each group's table entry says which documents it covers). A present rare term's
   * groups say "maybe" and their other blocks each say a false "maybe" at the block filters' rate
   * (~1.3% at {@link #BLOCK_BITS}): 63 such blocks a group read ~0.8 blocks for nothing, 15 read
   * ~0.2, for group filters holding about half of their blocks' entries instead of a third.
   */
  public static final int BLOCKS = 16;

  /** Bits of a group's filter per distinct entry of its blocks. */
  public static final int BITS = 12;

  /** Bits of a grouped block's own filter per entry. */
  public static final int BLOCK_BITS = 10;

  static final TermFilterGroups NONE = new TermFilterGroups(new int[0], new int[0], new long[0]);

  private static final int ENTRY = 2 * Integer.BYTES + Long.BYTES;

  private final int[] first;
  private final int[] end;
  private final long[] filterEnd;

  private TermFilterGroups(int[] first, int[] end, long[] filterEnd) {
    this.first = first;
    this.end = end;
    this.filterEnd = filterEnd;
  }

  /** The number of groups. */
  public int count() {
    return first.length;
  }

  /** The first document of group {@code g}. */
  public int first(int g) {
    return first[g];
  }

  /** The document after the last of group {@code g}. */
  public int end(int g) {
    return end[g];
  }

  /** The first group ending after {@code doc} ({@link #count} when none does). */
  public int atOrAfter(int doc) {
    if (doc == Integer.MAX_VALUE) {
      return first.length; // doc + 1 would wrap round to the first group
    }
    int i = Arrays.binarySearch(end, doc + 1);
    return i >= 0 ? i : -1 - i;
  }

  /** The group holding {@code doc}, or -1. */
  int of(int doc) {
    int g = atOrAfter(doc);
    return g < first.length && first[g] <= doc ? g : -1;
  }

  /** Where group {@code g}'s filter begins, counted from the end of the table. */
  long filterStart(int g) {
    return g == 0 ? 0 : filterEnd[g - 1];
  }

  /** Where group {@code g}'s filter ends, counted from the end of the table. */
  long filterEnd(int g) {
    return filterEnd[g];
  }

  /** The bytes of the table of {@code groups} groups (their filters follow). */
  static long tableLength(int groups) {
    return (long) ENTRY * groups;
  }

  /**
   * Reads the table of {@code count} groups at {@code start} of a segment of {@code maxDoc}
   * documents whose filters may end no later than {@code limit}, checked by the grammar above.
   */
  static TermFilterGroups read(IndexInput input, long start, int count, int maxDoc, long limit)
      throws IOException {
    if (count == 0) {
      return NONE;
    }
    if (count < 0 || start + tableLength(count) > limit) {
      throw new CorruptIndexException(count + " groups at " + start, input);
    }
    IndexInput table = input.slice("term filter groups", start, tableLength(count));
    int[] first = new int[count];
    int[] end = new int[count];
    long[] filterEnd = new long[count];
    for (int g = 0; g < count; g++) {
      first[g] = table.readInt();
      end[g] = table.readInt();
      filterEnd[g] = table.readLong();
      if (first[g] < (g == 0 ? 0 : end[g - 1])
          || end[g] <= first[g]
          || end[g] > maxDoc
          || filterEnd[g] <= (g == 0 ? 0 : filterEnd[g - 1])) {
        throw new CorruptIndexException(
            "group "
                + g
                + ": documents "
                + first[g]
                + " to "
                + end[g]
                + ", filter to "
                + filterEnd[g],
            input);
      }
    }
    if (start + tableLength(count) + filterEnd[count - 1] > limit) {
      throw new CorruptIndexException("group filters end past " + limit, input);
    }
    return new TermFilterGroups(first, end, filterEnd);
  }

  /**
   * A field's groups as the writer makes them: at a flush from the entries of each block ({@link
   * #add}, {@link #block}, {@link #close}), at a merge carried over from an input ({@link #carry}).
   */
  static final class Written {
    private int[] first = new int[8];
    private int[] end = new int[8];
    private byte[][] filters = new byte[8][];
    private int count;
    // the group being built at a flush: its documents, and its distinct entries (open addressing,
    // a slot in use when its stamp is the group's)
    private int groupFirst = -1;
    private int groupEnd;
    private int groupBlocks;
    private long[] keys = new long[1 << 14];
    private int[] stamps = new int[1 << 14];
    private int stamp = 1;
    private int distinct;
    private final TermFilter.Builder builder = new TermFilter.Builder();

    /** The number of groups so far. */
    int count() {
      return count;
    }

    /** Adds an entry of the block being built to its group. */
    void add(long hash) {
      int mask = keys.length - 1;
      int slot = (int) (hash ^ (hash >>> 31)) & mask;
      while (stamps[slot] == stamp) {
        if (keys[slot] == hash) {
          return;
        }
        slot = (slot + 1) & mask;
      }
      stamps[slot] = stamp;
      keys[slot] = hash;
      if (++distinct * 2 > keys.length) {
        grow();
      }
    }

    /** Ends the block of document {@code doc}, whose entries were {@link #add}ed. */
    void block(int doc) {
      if (groupFirst < 0) {
        groupFirst = doc;
      }
      groupEnd = doc + 1;
      if (++groupBlocks == BLOCKS) {
        close();
      }
    }

    /** Ends the group being built, if any: the next block begins another. */
    void close() {
      if (groupFirst < 0) {
        return;
      }
      builder.reset(distinct, BITS);
      for (int slot = 0; slot < keys.length; slot++) {
        if (stamps[slot] == stamp) {
          builder.add(TermFilter.groupHash(keys[slot]));
        }
      }
      append(groupFirst, groupEnd, builder.toBytes());
      groupFirst = -1;
      groupBlocks = 0;
      distinct = 0;
      stamp++;
    }

    /**
     * Carries input {@code values}' groups into a merge, each over the merged documents of its live
     * ones ({@code map}), its filter holding {@code added} too.
     */
    void carry(TermFilterValues values, MergeState.DocMap map, long[] added) throws IOException {
      TermFilterGroups groups = values.groups();
      long[] hashes = new long[added.length];
      for (int i = 0; i < added.length; i++) {
        hashes[i] = TermFilter.groupHash(added[i]);
      }
      for (int g = 0; g < groups.count(); g++) {
        int from = Integer.MAX_VALUE;
        int to = -1;
        for (int doc = groups.first(g); doc < groups.end(g); doc++) {
          int mapped = map.get(doc);
          if (mapped >= 0) {
            from = Math.min(from, mapped);
            to = Math.max(to, mapped);
          }
        }
        if (to >= 0) {
          BytesRef filter = values.groupFilter(g);
          append(
              from,
              to + 1,
              hashes.length == 0
                  ? BytesRef.deepCopyOf(filter).bytes
                  : TermFilter.addTo(filter, hashes));
        }
      }
    }

    /** Writes the groups in the grammar above. */
    void write(IndexOutput out) throws IOException {
      close();
      long filterEnd = 0;
      for (int g = 0; g < count; g++) {
        filterEnd += filters[g].length;
        out.writeInt(first[g]);
        out.writeInt(end[g]);
        out.writeLong(filterEnd);
      }
      for (int g = 0; g < count; g++) {
        out.writeBytes(filters[g], filters[g].length);
      }
    }

    private void append(int from, int to, byte[] filter) {
      if (count > 0 && from < end[count - 1]) {
        throw new IllegalStateException(
            "group of documents " + from + " to " + to + " after one ending at " + end[count - 1]);
      }
      if (count == first.length) {
        first = ArrayUtil.growExact(first, 2 * count);
        end = ArrayUtil.growExact(end, 2 * count);
        filters = ArrayUtil.growExact(filters, 2 * count);
      }
      first[count] = from;
      end[count] = to;
      filters[count++] = filter;
    }

    private void grow() {
      long[] oldKeys = keys;
      int[] oldStamps = stamps;
      keys = new long[oldKeys.length * 2];
      stamps = new int[oldKeys.length * 2];
      distinct = 0;
      for (int slot = 0; slot < oldKeys.length; slot++) {
        if (oldStamps[slot] == stamp) {
          add(oldKeys[slot]);
        }
      }
    }
  }
}
