package io.quarry.ql.eval;

import static io.quarry.ql.eval.ColumnValues.doubleValue;
import static io.quarry.ql.eval.ColumnValues.numeric;

import io.quarry.plugin.api.data.LongBlock;

/**
 * The shape two binary operators share, arithmetic and comparison: per position null when either
 * side is null, a tight loop when the left side is a block of whole numbers and the right a whole
 * number, two whole numbers or two numbers without boxing, numeric text as the number it reads as,
 * and anything else (a multivalue, text that is not a number) through the operator's own rule for
 * the values. A subclass says what each case yields.
 */
abstract class NumericBinaryEvaluator implements ExpressionEvaluator {
  private final ExpressionEvaluator left;
  private final ExpressionEvaluator right;

  NumericBinaryEvaluator(ExpressionEvaluator left, ExpressionEvaluator right) {
    this.left = left;
    this.right = right;
  }

  /** Sets position {@code p} of {@code out} for two whole numbers. */
  abstract void longs(ArrayColumn out, int p, long a, long b);

  /** Sets position {@code p} of {@code out} for two numbers, either a double. */
  abstract void doubles(ArrayColumn out, int p, double a, double b);

  /** Sets position {@code p} of {@code out} for two other values (neither null). */
  abstract void values(ArrayColumn out, int p, ValueColumn a, ValueColumn b);

  @Override
  public final boolean total() {
    return left.total() && right.total();
  }

  @Override
  public final ValueColumn eval(Frame frame) {
    ValueColumn a = left.eval(frame);
    ValueColumn b = right.eval(frame);
    int size = frame.size();
    ArrayColumn out = new ArrayColumn(size);
    if (a instanceof BlockColumn column
        && b instanceof ConstantColumn constant
        && constant.kind(0) == ValueColumn.LONG
        && column.denseLongs() instanceof LongBlock dense) {
      long value = constant.getLong(0); // the dense case: a field of whole numbers and a number
      for (int p = 0; p < size; p++) {
        longs(out, p, dense.getLong(p), value);
      }
      return out;
    }
    long[] longs = new long[2];
    double[] doubles = new double[2];
    for (int p = 0; p < size; p++) {
      byte ka = a.kind(p);
      byte kb = b.kind(p);
      if (ka == ValueColumn.NULL || kb == ValueColumn.NULL) {
        out.setNull(p);
      } else if (ka == ValueColumn.LONG && kb == ValueColumn.LONG) {
        longs(out, p, a.getLong(p), b.getLong(p));
      } else if (numeric(ka) && numeric(kb)) {
        doubles(out, p, doubleValue(a, p, ka), doubleValue(b, p, kb));
      } else if ((ka == ValueColumn.TEXT || kb == ValueColumn.TEXT)
          && (ka = ColumnValues.number(a, p, ka, longs, doubles, 0)) != ColumnValues.NOT_A_NUMBER
          && (kb = ColumnValues.number(b, p, kb, longs, doubles, 1)) != ColumnValues.NOT_A_NUMBER) {
        if (ka == ValueColumn.LONG && kb == ValueColumn.LONG) {
          longs(out, p, longs[0], longs[1]);
        } else {
          doubles(
              out,
              p,
              ka == ValueColumn.LONG ? longs[0] : doubles[0],
              kb == ValueColumn.LONG ? longs[1] : doubles[1]);
        }
      } else {
        values(out, p, a, b);
      }
    }
    return out;
  }
}
