package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.ql.ast.AggregateFunction;
import java.util.Arrays;

/**
 * {@code var}, {@code varp}, {@code stdev}, {@code stdevp} and {@code sumsq} (m2 + n·mean²): per
 * group the count of numeric values, their running mean and sum of squared deviations (Welford's
 * method; partials merge with Chan's formula), so no value is kept. A NaN number makes them NaN.
 */
final class VarianceFunction implements GroupingFunction {
  private final AggregateFunction function;
  private long[] counts = new long[0];
  private double[] means = new double[0];
  private double[] m2s = new double[0];

  VarianceFunction(AggregateFunction function) {
    this.function = function;
  }

  @Override
  public boolean orderMatters() {
    return false; // sums
  }

  @Override
  public void grow(int groups) {
    if (groups > counts.length) {
      int size = Math.max(groups, counts.length * 2);
      counts = Arrays.copyOf(counts, size);
      means = Arrays.copyOf(means, size);
      m2s = Arrays.copyOf(m2s, size);
    }
  }

  @Override
  public long add(int group, Block values, int position, long time) {
    if (values == null) {
      return 0;
    }
    int first = values.getFirstValueIndex(position);
    int end = first + values.getValueCount(position);
    for (int i = first; i < end; i++) {
      double number = BlockValues.number(values, i);
      if (!BlockValues.isNumber(values, number)) {
        continue; // a NaN number is kept: the variance is NaN
      }
      long n = ++counts[group];
      double delta = number - means[group];
      means[group] += delta / n;
      m2s[group] += delta * (number - means[group]);
    }
    return 0;
  }

  @Override
  public long merge(int group, GroupingFunction other, int otherGroup) {
    VarianceFunction theirs = (VarianceFunction) other;
    long a = counts[group];
    long b = theirs.counts[otherGroup];
    long n = a + b;
    if (n > 0) {
      double delta = theirs.means[otherGroup] - means[group];
      m2s[group] = m2s[group] + theirs.m2s[otherGroup] + delta * delta * a * b / n;
      means[group] = means[group] + delta * b / n;
    }
    counts[group] = n;
    return 0;
  }

  @Override
  public Object result(int group) {
    long n = counts[group];
    double m2 = m2s[group];
    return switch (function) {
      case VAR -> n < 2 ? null : m2 / (n - 1);
      case VARP -> n == 0 ? null : m2 / n;
      case STDEV -> n < 2 ? null : Math.sqrt(m2 / (n - 1));
      case STDEVP -> n == 0 ? null : Math.sqrt(m2 / n);
      case SUMSQ -> n == 0 ? null : m2 + n * means[group] * means[group];
      default -> throw new IllegalStateException(function.functionName());
    };
  }

  @Override
  public long bytesPerGroup() {
    return 24;
  }
}
