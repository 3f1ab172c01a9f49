package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.ql.ast.AggregateFunction;
import io.quarry.ql.engine.LongPages;
import io.quarry.ql.exec.TimeField;

/**
 * {@code sum}, {@code avg}, {@code min}, {@code max} and {@code range}: per group the count of
 * numeric values, their sum, minimum and maximum, and whether each was whole (a sum of whole
 * numbers is a whole number). A NaN (from arithmetic: {@code inf - inf}) is a number and makes
 * every answer NaN ({@code nan}). Values that are not numbers are skipped, but for {@code min} and
 * {@code max}: a group that has seen no number answers its least or greatest text ({@link
 * TextExtremes}, kept only once a text arrives); {@code _time} is read as epoch seconds and its
 * minimum, maximum and range answered to the microsecond ({@link TimeField}).
 *
 * <p>A group's four states lie side by side in one {@code long[]} (doubles as their bits, the
 * whole-number flag in the count's top bit), so adding a value touches one cache line: with 200,000
 * groups a lookup per state array was a cache miss each. The states are paged ({@link LongPages}: a
 * group's four never cross a page), so 200,000 groups' 6 MiB grow by pages, not by copies into
 * arrays G1 allocates as humongous.
 */
final class NumericFunction implements GroupingFunction {
  private static final int STRIDE = 4;
  private static final int COUNT = 0; // numeric values, and FRACTIONAL
  private static final int SUM = 1;
  private static final int MIN = 2;
  private static final int MAX = 3;
  private static final long FRACTIONAL = 1L << 62; // in COUNT: some value was not whole
  private static final long EMPTY_MIN = Double.doubleToRawLongBits(Double.POSITIVE_INFINITY);
  private static final long EMPTY_MAX = Double.doubleToRawLongBits(Double.NEGATIVE_INFINITY);

  private final AggregateFunction function;
  private final boolean overTime;
  private final LongPages states = new LongPages(0);
  private int filled; // groups whose states are set to empty
  private final io.quarry.plugin.api.data.ByteSlice scratch =
      new io.quarry.plugin.api.data.ByteSlice();
  private TextExtremes texts; // min/max: made when the first text that is not a number arrives

  NumericFunction(AggregateFunction function, String field) {
    this.function = function;
    this.overTime = TimeField.is(field);
  }

  @Override
  public boolean orderMatters() {
    return false; // sums and extremes
  }

  @Override
  public void grow(int groups) {
    int old = filled;
    if (groups <= old) {
      return;
    }
    states.grow(groups * STRIDE);
    int size = states.capacity() / STRIDE;
    for (int g = old; g < size; g++) {
      int at = g * STRIDE;
      long[] page = states.page(at);
      page[LongPages.offset(at) + MIN] = EMPTY_MIN;
      page[LongPages.offset(at) + MAX] = EMPTY_MAX;
    }
    filled = size;
  }

  @Override
  public long add(int group, Block values, int position, long time) {
    if (values == null) {
      return 0;
    }
    int first = values.getFirstValueIndex(position);
    int end = first + values.getValueCount(position);
    int at = group * STRIDE;
    long[] page = states.page(at);
    long grown = 0;
    for (int i = first; i < end; i++) {
      double number = BlockValues.number(values, i, scratch);
      if (BlockValues.isNumber(values, number)) {
        addNumber(page, LongPages.offset(at), number);
      } else if (function == AggregateFunction.MIN || function == AggregateFunction.MAX) {
        grown += texts().offer(group, BlockValues.text(values, i));
      }
    }
    return grown;
  }

  private TextExtremes texts() {
    if (texts == null) {
      texts = new TextExtremes(function == AggregateFunction.MAX);
    }
    return texts;
  }

  /**
   * A block of whole numbers or timestamps with one value or none per position (what {@code
   * range(_time)} reads) in one loop, each value read as {@link BlockValues#number} reads it; any
   * other block position by position.
   */
  @Override
  public long addPage(int[] groups, int count, Block values, long[] times) {
    if (!(values instanceof LongBlock longs) || longs.mayHaveMultivaluedFields()) {
      return GroupingFunction.super.addPage(groups, count, values, times);
    }
    boolean timestamps = longs.dataType() == DataType.TIMESTAMP;
    LongPages into = states;
    for (int p = 0; p < count; p++) {
      int group = groups[p];
      if (group >= 0 && !longs.isNull(p)) {
        long value = longs.getLongValue(p); // single-valued: value index = position
        int at = group * STRIDE;
        addNumber(into.page(at), LongPages.offset(at), timestamps ? value / 1e6 : value);
      }
    }
    return 0;
  }

  /**
   * Adds a number to the state at {@code at}; a NaN makes the sum, minimum and maximum NaN ({@link
   * Math#min} and {@link Math#max} propagate it, as IEEE 754's minimum and maximum do).
   */
  private static void addNumber(long[] states, int at, double number) {
    long count = states[at + COUNT] + 1;
    if (!(number == Math.rint(number) && Math.abs(number) < 0x1p53)) {
      count |= FRACTIONAL;
    }
    states[at + COUNT] = count;
    states[at + SUM] =
        Double.doubleToRawLongBits(Double.longBitsToDouble(states[at + SUM]) + number);
    states[at + MIN] =
        Double.doubleToRawLongBits(Math.min(Double.longBitsToDouble(states[at + MIN]), number));
    states[at + MAX] =
        Double.doubleToRawLongBits(Math.max(Double.longBitsToDouble(states[at + MAX]), number));
  }

  @Override
  public long merge(int group, GroupingFunction other, int otherGroup) {
    NumericFunction their = (NumericFunction) other;
    mergeState(states, group * STRIDE, their.states, otherGroup * STRIDE);
    return mergeText(group, their, otherGroup);
  }

  private long mergeText(int group, NumericFunction their, int otherGroup) {
    String text = their.texts == null ? null : their.texts.get(otherGroup);
    return text == null ? 0 : texts().offer(group, text);
  }

  @Override
  public long mergePage(int[] groups, int count, GroupingFunction other, int otherFrom) {
    LongPages into = states;
    NumericFunction their = (NumericFunction) other;
    LongPages theirs = their.states;
    for (int i = 0; i < count; i++) {
      mergeState(into, groups[i] * STRIDE, theirs, (otherFrom + i) * STRIDE);
    }
    long grown = 0;
    if (their.texts != null) {
      for (int i = 0; i < count; i++) {
        grown += mergeText(groups[i], their, otherFrom + i);
      }
    }
    return grown;
  }

  /** Adds the state at {@code theirs[from]} to the one at {@code states[at]}. */
  private static void mergeState(LongPages into, int index, LongPages from, int fromIndex) {
    mergeState(
        into.page(index),
        LongPages.offset(index),
        from.page(fromIndex),
        LongPages.offset(fromIndex));
  }

  private static void mergeState(long[] states, int at, long[] theirs, int from) {
    long count = states[at + COUNT];
    long their = theirs[from + COUNT];
    states[at + COUNT] =
        ((count & ~FRACTIONAL) + (their & ~FRACTIONAL)) | ((count | their) & FRACTIONAL);
    states[at + SUM] =
        Double.doubleToRawLongBits(
            Double.longBitsToDouble(states[at + SUM])
                + Double.longBitsToDouble(theirs[from + SUM]));
    states[at + MIN] =
        Double.doubleToRawLongBits(
            Math.min(
                Double.longBitsToDouble(states[at + MIN]),
                Double.longBitsToDouble(theirs[from + MIN])));
    states[at + MAX] =
        Double.doubleToRawLongBits(
            Math.max(
                Double.longBitsToDouble(states[at + MAX]),
                Double.longBitsToDouble(theirs[from + MAX])));
  }

  @Override
  public Object result(int group) {
    long[] states = this.states.page(group * STRIDE);
    int at = LongPages.offset(group * STRIDE);
    long count = states[at + COUNT] & ~FRACTIONAL;
    if (count == 0) {
      return texts == null ? null : texts.get(group);
    }
    boolean fractional = (states[at + COUNT] & FRACTIONAL) != 0;
    double sum = Double.longBitsToDouble(states[at + SUM]);
    double min = Double.longBitsToDouble(states[at + MIN]);
    double max = Double.longBitsToDouble(states[at + MAX]);
    return switch (function) {
      case SUM -> typed(fractional, sum);
      case AVG -> sum / count;
      case MIN -> overTime ? TimeField.exactSeconds(min) : typed(fractional, min);
      case MAX -> overTime ? TimeField.exactSeconds(max) : typed(fractional, max);
      case RANGE -> overTime ? TimeField.exactRange(min, max) : typed(fractional, max - min);
      default -> throw new IllegalStateException(function.functionName());
    };
  }

  private static Object typed(boolean fractional, double value) {
    return fractional ? (Object) value : (Object) (long) value;
  }

  @Override
  public long bytesPerGroup() {
    return 8L * STRIDE;
  }
}
