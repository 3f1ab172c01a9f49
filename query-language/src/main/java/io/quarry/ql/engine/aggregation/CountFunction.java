package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.ql.engine.LongPages;

/**
 * {@code count} (rows) and {@code count(f)} (the values of {@code f}, a multivalue's each), per
 * group in paged longs ({@link LongPages}: no humongous copy as the groups grow).
 */
final class CountFunction implements GroupingFunction {
  private final boolean ofField;
  private final LongPages counts = new LongPages(0);

  CountFunction(boolean ofField) {
    this.ofField = ofField;
  }

  @Override
  public boolean orderMatters() {
    return false; // a count adds up whatever the order
  }

  @Override
  public void grow(int groups) {
    counts.grow(groups);
  }

  @Override
  public long add(int group, Block values, int position, long time) {
    if (!ofField) {
      counts.add(group, 1);
    } else if (values != null) {
      counts.add(group, values.getValueCount(position));
    }
    return 0;
  }

  @Override
  public long addPage(int[] groups, int count, Block values, long[] times) {
    if (ofField) {
      return GroupingFunction.super.addPage(groups, count, values, times);
    }
    LongPages rows = counts;
    for (int p = 0; p < count; p++) {
      int group = groups[p];
      if (group >= 0) {
        rows.add(group, 1);
      }
    }
    return 0;
  }

  /** Whether this counts rows ({@code count}), not a field's values ({@code count(f)}). */
  boolean countsRows() {
    return !ofField;
  }

  /** Adds {@code rows} rows counted elsewhere to {@code group} ({@code count} only). */
  void addCount(int group, long rows) {
    counts.add(group, rows);
  }

  @Override
  public long merge(int group, GroupingFunction other, int otherGroup) {
    counts.add(group, ((CountFunction) other).counts.get(otherGroup));
    return 0;
  }

  @Override
  public long mergePage(int[] groups, int count, GroupingFunction other, int otherFrom) {
    LongPages rows = counts;
    LongPages theirs = ((CountFunction) other).counts;
    for (int i = 0; i < count; i++) {
      rows.add(groups[i], theirs.get(otherFrom + i));
    }
    return 0;
  }

  @Override
  public Object result(int group) {
    return counts.get(group);
  }

  @Override
  public long bytesPerGroup() {
    return Long.BYTES;
  }
}
