package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.ql.ast.AggregateFunction;
import io.quarry.ql.exec.TimeField;
import java.util.Arrays;

/**
 * {@code sum}, {@code avg}, {@code min}, {@code max} and {@code range}: per group the count of
 * numeric values, their sum, minimum and maximum, and whether each was whole (a sum of whole
 * numbers is a whole number). Values that are not numbers are skipped; {@code _time} is read as
 * epoch seconds and its minimum, maximum and range answered to the microsecond ({@link TimeField}).
 */
final class NumericFunction implements GroupingFunction {
  private final AggregateFunction function;
  private final boolean overTime;
  private long[] numericCounts = new long[0];
  private double[] sums = new double[0];
  private double[] mins = new double[0];
  private double[] maxes = new double[0];
  private boolean[] fractional = new boolean[0];

  NumericFunction(AggregateFunction function, String field) {
    this.function = function;
    this.overTime = TimeField.is(field);
  }

  @Override
  public void grow(int groups) {
    int old = sums.length;
    if (groups <= old) {
      return;
    }
    int size = Math.max(groups, old * 2);
    numericCounts = Arrays.copyOf(numericCounts, size);
    sums = Arrays.copyOf(sums, size);
    mins = Arrays.copyOf(mins, size);
    maxes = Arrays.copyOf(maxes, size);
    fractional = Arrays.copyOf(fractional, size);
    Arrays.fill(mins, old, size, Double.POSITIVE_INFINITY);
    Arrays.fill(maxes, old, size, Double.NEGATIVE_INFINITY);
  }

  @Override
  public long add(int group, Block values, int position) {
    if (values == null) {
      return 0;
    }
    int first = values.getFirstValueIndex(position);
    int end = first + values.getValueCount(position);
    for (int i = first; i < end; i++) {
      double number = BlockValues.number(values, i);
      if (Double.isNaN(number)) {
        continue;
      }
      numericCounts[group]++;
      sums[group] += number;
      if (!(number == Math.rint(number) && Math.abs(number) < 0x1p53)) {
        fractional[group] = true;
      }
      mins[group] = Math.min(mins[group], number);
      maxes[group] = Math.max(maxes[group], number);
    }
    return 0;
  }

  @Override
  public long merge(int group, GroupingFunction other, int otherGroup) {
    NumericFunction theirs = (NumericFunction) other;
    numericCounts[group] += theirs.numericCounts[otherGroup];
    sums[group] += theirs.sums[otherGroup];
    fractional[group] |= theirs.fractional[otherGroup];
    mins[group] = Math.min(mins[group], theirs.mins[otherGroup]);
    maxes[group] = Math.max(maxes[group], theirs.maxes[otherGroup]);
    return 0;
  }

  @Override
  public Object result(int group) {
    if (numericCounts[group] == 0) {
      return null;
    }
    double min = mins[group];
    double max = maxes[group];
    return switch (function) {
      case SUM -> typed(group, sums[group]);
      case AVG -> sums[group] / numericCounts[group];
      case MIN -> overTime ? TimeField.exactSeconds(min) : typed(group, min);
      case MAX -> overTime ? TimeField.exactSeconds(max) : typed(group, max);
      case RANGE -> overTime ? TimeField.exactRange(min, max) : typed(group, max - min);
      default -> throw new IllegalStateException(function.functionName());
    };
  }

  private Object typed(int group, double value) {
    return fractional[group] ? (Object) value : (Object) (long) value;
  }

  @Override
  public long bytesPerGroup() {
    return 8L * 4 + 1;
  }
}
