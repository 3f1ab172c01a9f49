package io.quarry.plugins.anomalydetection;

import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How often each value occurs, per group: the exact partial state of both methods (z-score needs
 * the moments, IQR the quartiles, and counts of values give both and merge by adding). Its memory
 * is reserved against the search as it grows, released when it is emitted or closed.
 */
final class ValueCounts {
  /** Rough heap cost of one value entry and of one group, for the memory account. */
  static final long ENTRY_BYTES = 80;

  static final long GROUP_BYTES = 160;

  static final Schema STATE =
      new Schema(
          List.of(
              new Schema.Column("group", DataType.STRING),
              new Schema.Column("value", DataType.DOUBLE),
              new Schema.Column("count", DataType.LONG)));

  private static final int STATE_PAGE_ROWS = 4096;

  private final BlockFactory factory;
  private final Map<String, Map<Double, long[]>> groups = new HashMap<>();
  private long reserved;

  ValueCounts(BlockFactory factory) {
    this.factory = factory;
  }

  void add(String group, double value, long count) {
    Map<Double, long[]> values = groups.get(group);
    if (values == null) {
      reserve(GROUP_BYTES);
      values = new HashMap<>();
      groups.put(group, values);
    }
    long[] counter = values.get(value);
    if (counter == null) {
      reserve(ENTRY_BYTES);
      values.put(value, new long[] {count});
    } else {
      counter[0] += count;
    }
  }

  /** Adds a state page's counts (the page is released). */
  void addState(Page state) {
    BytesBlock group = (BytesBlock) state.block(0);
    DoubleBlock value = (DoubleBlock) state.block(1);
    LongBlock count = (LongBlock) state.block(2);
    for (int p = 0; p < state.positionCount(); p++) {
      add(group.getString(p), value.getDouble(p), count.getLong(p));
    }
    factory.release(state);
  }

  /** The counts as state pages; this is emptied (their memory moves to the pages). */
  List<Page> drainToPages() {
    List<Page> pages = new ArrayList<>();
    BytesBlock.Builder group = null;
    DoubleBlock.Builder value = null;
    LongBlock.Builder count = null;
    int rows = 0;
    for (Map.Entry<String, Map<Double, long[]>> entry : groups.entrySet()) {
      for (Map.Entry<Double, long[]> counted : entry.getValue().entrySet()) {
        if (group == null) {
          group = factory.newBytesBlockBuilder(STATE_PAGE_ROWS);
          value = factory.newDoubleBlockBuilder(STATE_PAGE_ROWS);
          count = factory.newLongBlockBuilder(STATE_PAGE_ROWS);
        }
        group.append(entry.getKey());
        value.append(counted.getKey());
        count.append(counted.getValue()[0]);
        if (++rows == STATE_PAGE_ROWS) {
          pages.add(new Page(STATE, List.of(group.build(), value.build(), count.build())));
          group = null;
          rows = 0;
        }
      }
    }
    if (group != null) {
      pages.add(new Page(STATE, List.of(group.build(), value.build(), count.build())));
    }
    clear();
    return pages;
  }

  /** Per group (in name order), its values in ascending order with their counts. */
  Map<String, TreeMap<Double, Long>> sorted() {
    Map<String, TreeMap<Double, Long>> sorted = new TreeMap<>();
    groups.forEach(
        (group, values) -> {
          TreeMap<Double, Long> ordered = new TreeMap<>();
          values.forEach((v, c) -> ordered.put(v, c[0]));
          sorted.put(group, ordered);
        });
    return sorted;
  }

  void clear() {
    groups.clear();
    factory.release(reserved);
    reserved = 0;
  }

  private void reserve(long bytes) {
    factory.reserve(bytes, "anomalydetection");
    reserved += bytes;
  }
}
