package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;

/**
 * One function's results for every group of a hash aggregation's answer, asked once each in group
 * id order: while every result is a number or null they are kept as primitives (a {@code long} or a
 * double's bits, and a kind byte), else as the objects the function answered. The answer's pages
 * then read the results in sort order from two flat arrays: with 200,000 groups an {@code Object[]}
 * per group and a boxed number per result were a cache miss each, for a quarter of the answer's
 * time.
 */
final class ResultColumn {
  private static final byte NULL = 0;
  private static final byte WHOLE = 1;
  private static final byte FRACTION = 2;

  private final long[] numbers; // WHOLE: the long; FRACTION: the double's bits
  private final byte[] kinds;
  private Object[] objects; // set once some result is not a number: then every result, as answered
  private boolean anyWhole;
  private boolean anyFraction;

  private ResultColumn(int groups) {
    numbers = new long[groups];
    kinds = new byte[groups];
  }

  /** {@code function}'s results for groups {@code 0 … groups-1}. */
  static ResultColumn of(GroupingFunction function, int groups) {
    ResultColumn column = new ResultColumn(groups);
    for (int id = 0; id < groups; id++) {
      column.set(id, function.result(id));
    }
    return column;
  }

  private void set(int id, Object result) {
    anyWhole |= result instanceof Long;
    anyFraction |= result instanceof Double;
    if (objects != null) {
      objects[id] = result;
    } else if (result instanceof Long whole) {
      numbers[id] = whole;
      kinds[id] = WHOLE;
    } else if (result instanceof Double fraction) {
      numbers[id] = Double.doubleToRawLongBits(fraction);
      kinds[id] = FRACTION;
    } else if (result != null) {
      objects = new Object[kinds.length];
      for (int i = 0; i < id; i++) {
        objects[i] = number(i);
      }
      objects[id] = result;
    }
  }

  /** A kept number as the function answered it, or null. */
  private Object number(int id) {
    return switch (kinds[id]) {
      case WHOLE -> numbers[id];
      case FRACTION -> Double.longBitsToDouble(numbers[id]);
      default -> null;
    };
  }

  /**
   * Group {@code id}'s result as the function answered it, except that a whole number is a double
   * in a column that holds fractions too, so the column holds one type.
   */
  Object result(int id) {
    Object result = objects != null ? objects[id] : number(id);
    return anyWhole && anyFraction && result instanceof Long whole
        ? (Object) (double) whole
        : result;
  }

  /**
   * The results of groups {@code order[from, to)} as a long block, or a double block when the
   * column has fractions anywhere; null when some result of the column is not a number or all of
   * these are null (the caller types those as the row boundary does).
   */
  Block block(int[] order, int from, int to) {
    if (objects != null) {
      return null;
    }
    boolean any = false;
    for (int i = from; i < to && !any; i++) {
      any = kinds[order[i]] != NULL;
    }
    if (!any) {
      return null;
    }
    if (anyFraction) {
      DoubleBlock.Builder builder = DoubleBlock.builder(to - from);
      for (int i = from; i < to; i++) {
        int id = order[i];
        switch (kinds[id]) {
          case WHOLE -> builder.append((double) numbers[id]);
          case FRACTION -> builder.append(Double.longBitsToDouble(numbers[id]));
          default -> builder.appendNull();
        }
      }
      return builder.build();
    }
    LongBlock.Builder builder = LongBlock.builder(DataType.LONG, to - from);
    for (int i = from; i < to; i++) {
      int id = order[i];
      if (kinds[id] == NULL) {
        builder.appendNull();
      } else {
        builder.append(numbers[id]);
      }
    }
    return builder.build();
  }
}
