package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import java.util.Arrays;

/** {@code count} (rows) and {@code count(f)} (the values of {@code f}, a multivalue's each). */
final class CountFunction implements GroupingFunction {
  private final boolean ofField;
  private long[] counts = new long[0];

  CountFunction(boolean ofField) {
    this.ofField = ofField;
  }

  @Override
  public void grow(int groups) {
    if (groups > counts.length) {
      counts = Arrays.copyOf(counts, Math.max(groups, counts.length * 2));
    }
  }

  @Override
  public long add(int group, Block values, int position, long time) {
    if (!ofField) {
      counts[group]++;
    } else if (values != null) {
      counts[group] += values.getValueCount(position);
    }
    return 0;
  }

  @Override
  public long addPage(int[] groups, int count, Block values, long[] times) {
    if (ofField) {
      return GroupingFunction.super.addPage(groups, count, values, times);
    }
    long[] rows = counts;
    for (int p = 0; p < count; p++) {
      int group = groups[p];
      if (group >= 0) {
        rows[group]++;
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
    counts[group] += rows;
  }

  @Override
  public long merge(int group, GroupingFunction other, int otherGroup) {
    counts[group] += ((CountFunction) other).counts[otherGroup];
    return 0;
  }

  @Override
  public long mergePage(int[] groups, int count, GroupingFunction other, int otherFrom) {
    long[] rows = counts;
    long[] theirs = ((CountFunction) other).counts;
    for (int i = 0; i < count; i++) {
      rows[groups[i]] += theirs[otherFrom + i];
    }
    return 0;
  }

  @Override
  public Object result(int group) {
    return counts[group];
  }

  @Override
  public long bytesPerGroup() {
    return Long.BYTES;
  }
}
