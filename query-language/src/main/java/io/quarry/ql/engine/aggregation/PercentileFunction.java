package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import java.util.Arrays;

/**
 * {@code median} and {@code perc<N>}: every numeric value of a group (8 bytes each, counted), the
 * exact percentile interpolated linearly between the two nearest ranks; a whole answer over whole
 * numbers is a whole number. A NaN (from arithmetic) has no rank and is skipped.
 */
final class PercentileFunction implements GroupingFunction {
  private final double percent;
  private double[][] numbers = new double[0][];
  private int[] counts = new int[0];
  private boolean[] fractional = new boolean[0];

  PercentileFunction(double percent) {
    this.percent = percent;
  }

  @Override
  public boolean orderMatters() {
    return false; // the values are sorted before the answer
  }

  @Override
  public void grow(int groups) {
    if (groups > counts.length) {
      int size = Math.max(groups, counts.length * 2);
      numbers = Arrays.copyOf(numbers, size);
      counts = Arrays.copyOf(counts, size);
      fractional = Arrays.copyOf(fractional, size);
    }
  }

  @Override
  public long add(int group, Block values, int position, long time) {
    if (values == null) {
      return 0;
    }
    int first = values.getFirstValueIndex(position);
    int end = first + values.getValueCount(position);
    long grown = 0;
    for (int i = first; i < end; i++) {
      double number = BlockValues.number(values, i);
      if (!Double.isNaN(number)) {
        keep(group, number);
        grown += 8;
      }
    }
    return grown;
  }

  private void keep(int group, double number) {
    double[] kept = numbers[group];
    if (kept == null) {
      kept = numbers[group] = new double[4];
    } else if (counts[group] == kept.length) {
      kept = numbers[group] = Arrays.copyOf(kept, kept.length * 2);
    }
    kept[counts[group]++] = number;
    if (!(number == Math.rint(number) && Math.abs(number) < 0x1p53)) {
      fractional[group] = true;
    }
  }

  @Override
  public long merge(int group, GroupingFunction other, int otherGroup) {
    PercentileFunction theirs = (PercentileFunction) other;
    double[] kept = theirs.numbers[otherGroup];
    int n = theirs.counts[otherGroup];
    for (int i = 0; i < n; i++) {
      keep(group, kept[i]);
    }
    fractional[group] |= theirs.fractional[otherGroup];
    return 8L * n;
  }

  @Override
  public Object result(int group) {
    int n = counts[group];
    if (n == 0) {
      return null;
    }
    double[] sorted = Arrays.copyOf(numbers[group], n);
    Arrays.sort(sorted);
    double rank = percent / 100 * (n - 1);
    int low = (int) Math.floor(rank);
    int high = (int) Math.ceil(rank);
    double value = sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
    return !fractional[group] && value == Math.rint(value) ? (Object) (long) value : value;
  }

  @Override
  public long bytesPerGroup() {
    return 16;
  }
}
