package io.quarry.ql.eval;

import io.quarry.ql.exec.EvalValues;

/**
 * {@code = != < <= > >=} with Splunk's eval rules ({@link EvalValues#comparison}): numerically when
 * both sides are numbers (numeric text included; a NaN unordered: only {@code !=} holds), else as
 * case-sensitive text; null when either side is null; a multivalue true when any of its values
 * compares true. Two numbers compare here without boxing; a text reads as a number through {@code
 * Evaluator}'s own coercion.
 */
final class ComparisonEvaluator extends NumericBinaryEvaluator {
  private final int code;

  ComparisonEvaluator(String operator, ExpressionEvaluator left, ExpressionEvaluator right) {
    super(left, right);
    if (!isComparison(operator)) {
      throw new IllegalArgumentException("not a comparison: " + operator);
    }
    this.code = code(operator);
  }

  static boolean isComparison(String operator) {
    return switch (operator) {
      case "=", "!=", "<", "<=", ">", ">=" -> true;
      default -> false;
    };
  }

  @Override
  void longs(ArrayColumn out, int p, long a, long b) {
    out.setBoolean(p, holds(Long.compare(a, b)));
  }

  @Override
  void doubles(ArrayColumn out, int p, double a, double b) {
    out.setBoolean(
        p, Double.isNaN(a) || Double.isNaN(b) ? code == NOT_EQUAL : holds(Double.compare(a, b)));
  }

  @Override
  void values(ArrayColumn out, int p, ValueColumn a, ValueColumn b) {
    if (a.kind(p) == ValueColumn.MULTIVALUE || b.kind(p) == ValueColumn.MULTIVALUE) {
      out.setBoolean(
          p, EvalValues.anyMatch(a.get(p), b.get(p), (x, y) -> holds(EvalValues.comparison(x, y))));
    } else {
      out.setBoolean(p, holds(EvalValues.comparison(a.get(p), b.get(p))));
    }
  }

  /** {@link EvalValues#compares} without a string switch per position. */
  private boolean holds(int comparison) {
    if (comparison == EvalValues.UNORDERED) {
      return code == NOT_EQUAL;
    }
    return switch (code) {
      case EQUAL -> comparison == 0;
      case NOT_EQUAL -> comparison != 0;
      case LESS -> comparison < 0;
      case LESS_OR_EQUAL -> comparison <= 0;
      case GREATER -> comparison > 0;
      default -> comparison >= 0;
    };
  }

  private static final int EQUAL = 0;
  private static final int NOT_EQUAL = 1;
  private static final int LESS = 2;
  private static final int LESS_OR_EQUAL = 3;
  private static final int GREATER = 4;
  private static final int GREATER_OR_EQUAL = 5;

  private static int code(String operator) {
    return switch (operator) {
      case "=" -> EQUAL;
      case "!=" -> NOT_EQUAL;
      case "<" -> LESS;
      case "<=" -> LESS_OR_EQUAL;
      case ">" -> GREATER;
      default -> GREATER_OR_EQUAL;
    };
  }
}
