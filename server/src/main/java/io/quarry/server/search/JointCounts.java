package io.quarry.server.search;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.engine.aggregation.CountPages;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.util.BytesRef;

/**
 * Events counted per combination of one segment's ordinals of several keyword fields ({@code stats
 * count by f1, f2 …}, {@link io.quarry.ql.engine.aggregation.CountShortcut.Kind#GROUPS}): the
 * combination packed into one {@code long} (each field's ordinal a digit whose base is the field's
 * dictionary size in the segment), its count in an open-addressing table — no object per event or
 * group. The combinations counted become pages of intermediate state ({@link CountPages#groups}),
 * each ordinal's text looked up once in its field's dictionary, handed to a sink: when the table
 * holds {@link #FLUSH_AT} combinations (then it starts again empty, so its memory stays bounded
 * however many combinations a segment has: they pile up in the aggregation instead, under the
 * search's memory account) and at the end of a slice ({@link #flush}). Pieces, slices and segments
 * merge by the values' text in the aggregation.
 */
final class JointCounts {
  /** The most combinations held before they are handed on (a table of twice as many slots). */
  static final int FLUSH_AT = 1 << 16;

  private static final long EMPTY = -1;
  private static final int INITIAL_SLOTS = 64;

  private final SortedSetDocValues[] dictionaries;
  private final long[] bases; // per field, its dictionary's size
  private final List<String> fields;
  private final Consumer<Page> sink;
  private final int flushAt;
  private long[] keys = new long[INITIAL_SLOTS];
  private long[] counts = new long[INITIAL_SLOTS];
  private int size;

  private JointCounts(
      SortedSetDocValues[] dictionaries,
      long[] bases,
      List<String> fields,
      Consumer<Page> sink,
      int flushAt) {
    this.dictionaries = dictionaries;
    this.bases = bases;
    this.fields = List.copyOf(fields);
    this.sink = sink;
    this.flushAt = flushAt;
    Arrays.fill(keys, EMPTY);
  }

  /**
   * Counts over the segment whose dictionaries of the by-fields {@code fields} are {@code
   * dictionaries}, in by-field order, their pages handed to {@code sink}; null when their
   * combinations do not fit a {@code long}.
   */
  static JointCounts over(
      SortedSetDocValues[] dictionaries, List<String> fields, Consumer<Page> sink) {
    return over(dictionaries, fields, sink, FLUSH_AT);
  }

  /** As {@link #over(SortedSetDocValues[], List, Consumer)}, handing on at {@code flushAt}. */
  static JointCounts over(
      SortedSetDocValues[] dictionaries, List<String> fields, Consumer<Page> sink, int flushAt) {
    if (flushAt < 1) {
      throw new IllegalArgumentException("flushAt " + flushAt);
    }
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
    return new JointCounts(dictionaries, bases, fields, sink, flushAt);
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
        if (++size >= flushAt) {
          flush();
        } else if (size * 2 > keys.length) {
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

  /** Hands the combinations counted so far to the sink as one page, if any, and forgets them. */
  void flush() {
    Page page;
    try {
      page = page();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (page == null) {
      return;
    }
    Arrays.fill(keys, EMPTY);
    size = 0;
    sink.accept(page);
  }

  /**
   * The counted combinations as a page of intermediate state for the by-fields; null when nothing
   * was counted.
   */
  private Page page() throws IOException {
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
