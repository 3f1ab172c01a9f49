package io.quarry.ql.eval;

import static io.quarry.ql.eval.ColumnValues.doubleValue;
import static io.quarry.ql.eval.ColumnValues.numeric;

import io.quarry.plugin.api.data.LongBlock;
import io.quarry.ql.exec.EvalValues;

/**
 * {@code = != < <= > >=} with Splunk's eval rules ({@link EvalValues#compare}): numerically when
 * both sides are numbers (numeric text included), else as case-sensitive text; null when either
 * side is null; a multivalue true when any of its values compares true. Two numbers compare here
 * without boxing; a text reads as a number through the row engine's own coercion.
 */
final class ComparisonEvaluator implements ExpressionEvaluator {
  private final int code;
  private final ExpressionEvaluator left;
  private final ExpressionEvaluator right;

  ComparisonEvaluator(String operator, ExpressionEvaluator left, ExpressionEvaluator right) {
    if (!isComparison(operator)) {
      throw new IllegalArgumentException("not a comparison: " + operator);
    }
    this.code = code(operator);
    this.left = left;
    this.right = right;
  }

  static boolean isComparison(String operator) {
    return switch (operator) {
      case "=", "!=", "<", "<=", ">", ">=" -> true;
      default -> false;
    };
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
        out.setBoolean(p, holds(Long.compare(dense.getLong(p), value)));
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
        out.setBoolean(p, holds(Long.compare(a.getLong(p), b.getLong(p))));
      } else if (numeric(ka) && numeric(kb)) {
        out.setBoolean(p, holds(Double.compare(doubleValue(a, p, ka), doubleValue(b, p, kb))));
      } else if ((ka == ValueColumn.TEXT || kb == ValueColumn.TEXT)
          && (ka = ColumnValues.number(a, p, ka, longs, doubles, 0)) != ColumnValues.NOT_A_NUMBER
          && (kb = ColumnValues.number(b, p, kb, longs, doubles, 1)) != ColumnValues.NOT_A_NUMBER) {
        // numeric text: compared as the number it reads as
        out.setBoolean(
            p,
            holds(
                ka == ValueColumn.LONG && kb == ValueColumn.LONG
                    ? Long.compare(longs[0], longs[1])
                    : Double.compare(
                        ka == ValueColumn.LONG ? longs[0] : doubles[0],
                        kb == ValueColumn.LONG ? longs[1] : doubles[1])));
      } else if (a.kind(p) == ValueColumn.MULTIVALUE || b.kind(p) == ValueColumn.MULTIVALUE) {
        out.setBoolean(
            p, EvalValues.anyMatch(a.get(p), b.get(p), (x, y) -> holds(EvalValues.compare(x, y))));
      } else {
        out.setBoolean(p, holds(EvalValues.compare(a.get(p), b.get(p))));
      }
    }
    return out;
  }

  /** {@link EvalValues#compares} without a string switch per position. */
  private boolean holds(int comparison) {
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
