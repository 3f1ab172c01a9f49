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
 * <p>A group's states lie side by side in one slot of a {@code long[]} (doubles as their bits, the
 * whole-number flag in the count's top bit), so adding a value touches one cache line: with 200,000
 * groups a lookup per state array was a cache miss each. A slot holds only the lanes the function
 * answers from: the count always, the sum for {@code sum} and {@code avg}, the minimum and maximum
 * for {@code min}, {@code max} and {@code range}; and, when the same {@code stats} counts rows
 * ({@link #withRows}: {@code count} answered by {@link RowCount}), the rows added to the group,
 * with or without a value — so {@code stats range(_time), count by f} reads and writes one slot of
 * 32 bytes per event, not a slot and a count array. A slot's lanes are rounded up to a power of two
 * (1, 2 or 4 longs), so slots never cross a page of the paged states ({@link LongPages}: 200,000
 * groups' 6 MiB grow by pages, not by copies into arrays G1 allocates as humongous).
 */
final class NumericFunction implements GroupingFunction {
  private static final int COUNT = 0; // numeric values, and FRACTIONAL
  private static final long FRACTIONAL = 1L << 62; // in COUNT: some value was not whole
  private static final long EMPTY_MIN = Double.doubleToRawLongBits(Double.POSITIVE_INFINITY);
  private static final long EMPTY_MAX = Double.doubleToRawLongBits(Double.NEGATIVE_INFINITY);

  private final AggregateFunction function;
  private final boolean overTime;
  private final int sum; // the sum's lane, or -1
  private final int min; // the minimum's lane (the maximum's is next), or -1
  private final int rows; // the rows' lane, or -1
  private final int stride; // longs per group: the lanes rounded up to a power of two
  private final LongPages states = new LongPages(0);
  private int filled; // groups whose states are set to empty
  private final io.quarry.plugin.api.data.ByteSlice scratch =
      new io.quarry.plugin.api.data.ByteSlice();
  private TextExtremes texts; // min/max: made when the first text that is not a number arrives

  NumericFunction(AggregateFunction function, String field) {
    this(function, field, false);
  }

  private NumericFunction(AggregateFunction function, String field, boolean countsRows) {
    this.function = function;
    this.overTime = TimeField.is(field);
    boolean sums = function == AggregateFunction.SUM || function == AggregateFunction.AVG;
    int lanes = 1;
    this.sum = sums ? lanes++ : -1;
    this.min = sums ? -1 : lanes;
    lanes += sums ? 0 : 2;
    this.rows = countsRows ? lanes++ : -1;
    this.stride = Integer.highestOneBit(lanes - 1) << 1; // 2 → 2, 3 → 4, 4 → 4
  }

  /**
   * The same function that also counts, per group, the rows added to it (with a value or not), for
   * a {@code count} of the same {@code stats} to answer ({@link RowCount}).
   */
  static NumericFunction withRows(AggregateFunction function, String field) {
    return new NumericFunction(function, field, true);
  }

  /** The rows added to {@code group} ({@link #withRows} only). */
  long rows(int group) {
    int at = group * stride;
    return states.page(at)[LongPages.offset(at) + rows];
  }

  /** Adds {@code count} rows counted elsewhere to {@code group} ({@link #withRows} only). */
  void addRows(int group, long count) {
    int at = group * stride;
    states.page(at)[LongPages.offset(at) + rows] += count;
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
    states.grow(groups * stride);
    int size = states.capacity() / stride;
    if (min >= 0) {
      for (int g = old; g < size; g++) {
        int at = g * stride;
        long[] page = states.page(at);
        page[LongPages.offset(at) + min] = EMPTY_MIN;
        page[LongPages.offset(at) + min + 1] = EMPTY_MAX;
      }
    }
    filled = size;
  }

  @Override
  public long add(int group, Block values, int position, long time) {
    int at = group * stride;
    long[] page = states.page(at);
    if (rows >= 0) {
      page[LongPages.offset(at) + rows]++;
    }
    if (values == null) {
      return 0;
    }
    int first = values.getFirstValueIndex(position);
    int end = first + values.getValueCount(position);
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
    // _time's extremes answer to the microsecond (TimeField.exactSeconds), never by the whole flag
    boolean timeExtremes = timestamps && overTime && min >= 0;
    LongPages into = states;
    int rows = this.rows;
    for (int p = 0; p < count; p++) {
      int group = groups[p];
      if (group < 0) {
        continue;
      }
      int at = group * stride;
      long[] page = into.page(at);
      int offset = LongPages.offset(at);
      if (rows >= 0) {
        page[offset + rows]++;
      }
      if (!longs.isNull(p)) {
        long value = longs.getLongValue(p); // single-valued: value index = position
        if (timeExtremes) {
          addExtremes(page, offset, value / 1e6);
        } else {
          addNumber(page, offset, timestamps ? value / 1e6 : value);
        }
      }
    }
    return 0;
  }

  /**
   * Adds a number to the state at {@code at}; a NaN makes the sum, minimum and maximum NaN ({@link
   * Math#min} and {@link Math#max} propagate it, as IEEE 754's minimum and maximum do).
   */
  private void addNumber(long[] states, int at, double number) {
    long count = states[at + COUNT] + 1;
    if (!(number == Math.rint(number) && Math.abs(number) < 0x1p53)) {
      count |= FRACTIONAL;
    }
    states[at + COUNT] = count;
    if (sum >= 0) {
      int s = at + sum;
      states[s] = Double.doubleToRawLongBits(Double.longBitsToDouble(states[s]) + number);
    } else {
      int m = at + min;
      states[m] = Double.doubleToRawLongBits(Math.min(Double.longBitsToDouble(states[m]), number));
      states[m + 1] =
          Double.doubleToRawLongBits(Math.max(Double.longBitsToDouble(states[m + 1]), number));
    }
  }

  /**
   * {@link #addNumber} for a minimum and maximum whose whole flag is never read ({@code _time}'s):
   * counted, no check whether the number is whole.
   */
  private void addExtremes(long[] states, int at, double number) {
    states[at + COUNT]++;
    int m = at + min;
    states[m] = Double.doubleToRawLongBits(Math.min(Double.longBitsToDouble(states[m]), number));
    states[m + 1] =
        Double.doubleToRawLongBits(Math.max(Double.longBitsToDouble(states[m + 1]), number));
  }

  /**
   * Whether this is {@code min}, {@code max} or {@code range} of {@code _time}, which takes states
   * made elsewhere ({@link #addTimeStates}).
   */
  boolean overTimeExtremes() {
    return overTime && min >= 0;
  }

  /**
   * Adds to {@code group} {@code rows} rows whose {@code _time}s (epoch microseconds) lie from
   * {@code minMicros} to {@code maxMicros}, as {@link #addPage} adds them one by one ({@link
   * #overTimeExtremes} only): each row a value and a row, the extremes in seconds (a division by a
   * positive constant keeps the order, so the least of the seconds is the least in seconds).
   */
  void addTimeStates(int group, long rows, long minMicros, long maxMicros) {
    int at = group * stride;
    long[] page = states.page(at);
    int offset = LongPages.offset(at);
    if (this.rows >= 0) {
      page[offset + this.rows] += rows;
    }
    if (rows == 0) {
      return;
    }
    page[offset + COUNT] += rows;
    int m = offset + min;
    page[m] =
        Double.doubleToRawLongBits(Math.min(Double.longBitsToDouble(page[m]), minMicros / 1e6));
    page[m + 1] =
        Double.doubleToRawLongBits(Math.max(Double.longBitsToDouble(page[m + 1]), maxMicros / 1e6));
  }

  @Override
  public long merge(int group, GroupingFunction other, int otherGroup) {
    NumericFunction their = (NumericFunction) other;
    mergeState(states, group * stride, their.states, otherGroup * stride);
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
      mergeState(into, groups[i] * stride, theirs, (otherFrom + i) * stride);
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
  private void mergeState(LongPages into, int index, LongPages from, int fromIndex) {
    mergeState(
        into.page(index),
        LongPages.offset(index),
        from.page(fromIndex),
        LongPages.offset(fromIndex));
  }

  private void mergeState(long[] states, int at, long[] theirs, int from) {
    long count = states[at + COUNT];
    long their = theirs[from + COUNT];
    states[at + COUNT] =
        ((count & ~FRACTIONAL) + (their & ~FRACTIONAL)) | ((count | their) & FRACTIONAL);
    if (sum >= 0) {
      states[at + sum] =
          Double.doubleToRawLongBits(
              Double.longBitsToDouble(states[at + sum])
                  + Double.longBitsToDouble(theirs[from + sum]));
    } else {
      states[at + min] =
          Double.doubleToRawLongBits(
              Math.min(
                  Double.longBitsToDouble(states[at + min]),
                  Double.longBitsToDouble(theirs[from + min])));
      states[at + min + 1] =
          Double.doubleToRawLongBits(
              Math.max(
                  Double.longBitsToDouble(states[at + min + 1]),
                  Double.longBitsToDouble(theirs[from + min + 1])));
    }
    if (rows >= 0) {
      states[at + rows] += theirs[from + rows];
    }
  }

  @Override
  public Object result(int group) {
    long[] states = this.states.page(group * stride);
    int at = LongPages.offset(group * stride);
    long count = states[at + COUNT] & ~FRACTIONAL;
    if (count == 0) {
      return texts == null ? null : texts.get(group);
    }
    boolean fractional = (states[at + COUNT] & FRACTIONAL) != 0;
    double sum = this.sum < 0 ? Double.NaN : Double.longBitsToDouble(states[at + this.sum]);
    double min = this.min < 0 ? Double.NaN : Double.longBitsToDouble(states[at + this.min]);
    double max = this.min < 0 ? Double.NaN : Double.longBitsToDouble(states[at + this.min + 1]);
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
    return 8L * stride;
  }
}
