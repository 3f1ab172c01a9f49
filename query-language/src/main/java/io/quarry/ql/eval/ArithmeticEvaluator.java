package io.quarry.ql.eval;

import io.quarry.ql.exec.EvalValues;

/**
 * {@code + - * / %}: two whole numbers stay whole until a result overflows or divides unevenly, any
 * double makes a double (an infinity or a NaN kept), a zero divisor is null — {@link
 * EvalValues#arithmetic}'s rules, computed without boxing when both sides are numbers (numeric text
 * as the number it reads as, so {@code +} of two numeric texts adds). Anything else (a multivalue,
 * {@code +} of two texts, which concatenates) takes {@code Evaluator}'s own code for that position.
 */
final class ArithmeticEvaluator extends NumericBinaryEvaluator {
  private final char operator;

  ArithmeticEvaluator(char operator, ExpressionEvaluator left, ExpressionEvaluator right) {
    super(left, right);
    if ("+-*/%".indexOf(operator) < 0) {
      throw new IllegalArgumentException("not an arithmetic operator: " + operator);
    }
    this.operator = operator;
  }

  @Override
  void values(ArrayColumn out, int p, ValueColumn a, ValueColumn b) {
    out.set(p, generic(operator, a.get(p), b.get(p)));
  }

  @Override
  void longs(ArrayColumn out, int p, long a, long b) {
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

  @Override
  void doubles(ArrayColumn out, int p, double a, double b) {
    if (EvalValues.dividesByZero(operator, b)) {
      out.setNull(p);
    } else {
      out.setDouble(p, EvalValues.doubles(operator, a, b));
    }
  }

  /** {@code Evaluator}'s answer for two values neither of which is null. */
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
