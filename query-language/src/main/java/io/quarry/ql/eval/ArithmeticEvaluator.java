package io.quarry.ql.eval;

import static io.quarry.ql.eval.ColumnValues.doubleValue;
import static io.quarry.ql.eval.ColumnValues.numeric;

import io.quarry.plugin.api.data.LongBlock;
import io.quarry.ql.exec.EvalValues;

/**
 * {@code + - * / %}: two whole numbers stay whole until a result overflows or divides unevenly, any
 * double makes a double, a zero divisor or a NaN is null — {@link EvalValues#arithmetic}'s rules,
 * computed here without boxing when both sides are numbers. Anything else (numeric text, a
 * multivalue, {@code +} of two texts, which concatenates) takes the row engine's own code for that
 * position.
 */
final class ArithmeticEvaluator implements ExpressionEvaluator {
  private final char operator;
  private final ExpressionEvaluator left;
  private final ExpressionEvaluator right;

  ArithmeticEvaluator(char operator, ExpressionEvaluator left, ExpressionEvaluator right) {
    if ("+-*/%".indexOf(operator) < 0) {
      throw new IllegalArgumentException("not an arithmetic operator: " + operator);
    }
    this.operator = operator;
    this.left = left;
    this.right = right;
  }

  @Override
  public boolean total() {
    return left.total() && right.total();
  }

  @Override
  public ValueColumn eval(Frame frame) {
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
        // numeric text computes as the number it reads as (+ of two numeric texts adds)
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
        out.set(p, generic(operator, a.get(p), b.get(p)));
      }
    }
    return out;
  }

  private void longs(ArrayColumn out, int p, long a, long b) {
    switch (operator) {
      case '+' -> {
        long sum = a + b;
        if (((a ^ sum) & (b ^ sum)) < 0) {
          doubles(out, p, a, b);
        } else {
          out.setLong(p, sum);
        }
      }
      case '-' -> {
        long difference = a - b;
        if (((a ^ b) & (a ^ difference)) < 0) {
          doubles(out, p, a, b);
        } else {
          out.setLong(p, difference);
        }
      }
      case '*' -> {
        long high = Math.multiplyHigh(a, b);
        long product = a * b;
        if ((high == 0 && product >= 0) || (high == -1 && product < 0)) {
          out.setLong(p, product);
        } else {
          doubles(out, p, a, b);
        }
      }
      case '/' -> {
        if (b == 0) {
          out.setNull(p);
        } else if (a % b == 0) {
          out.setLong(p, a / b);
        } else {
          out.setDouble(p, (double) a / b);
        }
      }
      default -> {
        if (b == 0) {
          out.setNull(p);
        } else {
          out.setLong(p, a % b);
        }
      }
    }
  }

  private void doubles(ArrayColumn out, int p, double a, double b) {
    double result =
        switch (operator) {
          case '+' -> a + b;
          case '-' -> a - b;
          case '*' -> a * b;
          case '/' -> b == 0 ? Double.NaN : a / b;
          default -> b == 0 ? Double.NaN : a % b;
        };
    if (Double.isNaN(result)) {
      out.setNull(p);
    } else {
      out.setDouble(p, result);
    }
  }

  /** The row engine's answer for two values neither of which is null. */
  static Object generic(char operator, Object left, Object right) {
    if (operator != '+') {
      return EvalValues.arithmetic(operator, left, right);
    }
    Object sum = EvalValues.arithmetic('+', left, right);
    // numbers add; two texts that are not numbers concatenate; anything else is null
    return sum != null
            || !(left instanceof String && right instanceof String)
            || EvalValues.number(left) != null
            || EvalValues.number(right) != null
        ? sum
        : EvalValues.text(left) + EvalValues.text(right);
  }
}
