package io.quarry.server.search;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.engine.aggregation.CountPages;
import io.quarry.ql.engine.aggregation.PageAggregator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.util.BytesRef;

/**
 * Events counted per combination of one segment's ordinals of several keyword fields ({@code stats
 * count by f1, f2 …}, {@link io.quarry.ql.engine.aggregation.CountShortcut.Kind#GROUPS}): the
 * combination packed into one {@code long} (each field's ordinal a digit whose base is the field's
 * dictionary size in the segment), its count in an open-addressing table — no object per event or
 * group. At the end of a slice the combinations present become a page of intermediate state ({@link
 * CountPages#groups}), each ordinal's text looked up once in its field's dictionary; slices and
 * segments then merge by the values' text in the aggregation.
 */
final class JointCounts {
  private static final long EMPTY = -1;

  private final SortedSetDocValues[] dictionaries;
  private final long[] bases; // per field, its dictionary's size
  private long[] keys = new long[64];
  private long[] counts = new long[64];
  private int size;

  private JointCounts(SortedSetDocValues[] dictionaries, long[] bases) {
    this.dictionaries = dictionaries;
    this.bases = bases;
    Arrays.fill(keys, EMPTY);
  }

  /**
   * Counts over the segment whose dictionaries of the by-fields are {@code dictionaries}, in
   * by-field order; null when their combinations do not fit a {@code long}.
   */
  static JointCounts over(SortedSetDocValues[] dictionaries) {
    long[] bases = new long[dictionaries.length];
    long product = 1;
    for (int f = 0; f < dictionaries.length; f++) {
      bases[f] = Math.max(1, dictionaries[f].getValueCount());
      long high = Math.multiplyHigh(product, bases[f]);
      product *= bases[f];
      if (high != 0 || product < 0) {
        return null;
      }
    }
    return new JointCounts(dictionaries, bases);
  }

  /** The packed combination of {@code ords}, one ordinal per by-field. */
  long key(long[] ords) {
    long key = 0;
    for (int f = 0; f < ords.length; f++) {
      key = key * bases[f] + ords[f];
    }
    return key;
  }

  /** Adds {@code count} events with the combination {@code key} ({@link #key}). */
  void add(long key, long count) {
    int mask = keys.length - 1;
    int slot = (int) mix(key) & mask;
    while (true) {
      long at = keys[slot];
      if (at == key) {
        counts[slot] += count;
        return;
      }
      if (at == EMPTY) {
        keys[slot] = key;
        counts[slot] = count;
        if (++size * 2 > keys.length) {
          grow();
        }
        return;
      }
      slot = (slot + 1) & mask;
    }
  }

  private static long mix(long key) {
    long h = key * 0x9E3779B97F4A7C15L;
    return h ^ (h >>> 29);
  }

  private void grow() {
    long[] oldKeys = keys;
    long[] oldCounts = counts;
    keys = new long[oldKeys.length * 2];
    counts = new long[oldKeys.length * 2];
    Arrays.fill(keys, EMPTY);
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != EMPTY) {
        add(oldKeys[i], oldCounts[i]);
      }
    }
  }

  /** Whether nothing was counted. */
  boolean isEmpty() {
    return size == 0;
  }

  /**
   * Adds the counted combinations to {@code partial} as intermediate state ({@link #page}), if any.
   */
  void handTo(PageAggregator partial, List<String> fields) {
    try {
      Page page = page(fields);
      if (page != null) {
        partial.addIntermediateInput(page);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The counted combinations as a page of intermediate state for {@code fields} (the by-fields, in
   * the order of this instance's dictionaries); null when nothing was counted.
   */
  Page page(List<String> fields) throws IOException {
    if (size == 0) {
      return null;
    }
    int n = dictionaries.length;
    List<BytesBlock.Builder> columns = new ArrayList<>(n);
    for (int f = 0; f < n; f++) {
      columns.add(BytesBlock.builder(size));
    }
    LongBlock.Builder byGroup = LongBlock.builder(DataType.LONG, size);
    long[] ords = new long[n];
    for (int slot = 0; slot < keys.length; slot++) {
      long key = keys[slot];
      if (key == EMPTY) {
        continue;
      }
      for (int f = n - 1; f >= 0; f--) {
        ords[f] = key % bases[f];
        key /= bases[f];
      }
      for (int f = 0; f < n; f++) {
        BytesRef value = dictionaries[f].lookupOrd(ords[f]);
        columns.get(f).append(value.bytes, value.offset, value.length);
      }
      byGroup.append(counts[slot]);
    }
    List<BytesBlock> values = new ArrayList<>(n);
    columns.forEach(column -> values.add(column.build()));
    return CountPages.groups(fields, values, byGroup.build());
  }
}
