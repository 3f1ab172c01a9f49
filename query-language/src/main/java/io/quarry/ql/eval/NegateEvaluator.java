package io.quarry.ql.eval;

import io.quarry.ql.exec.EvalValues;

/** {@code -x}: a number negated ({@code Long.MIN_VALUE} becomes a double), anything else null. */
final class NegateEvaluator implements ExpressionEvaluator {
  private final ExpressionEvaluator operand;

  NegateEvaluator(ExpressionEvaluator operand) {
    this.operand = operand;
  }

  @Override
  public boolean total() {
    return operand.total();
  }

  @Override
  public ValueColumn eval(Frame frame) {
    ValueColumn values = operand.eval(frame);
    int size = frame.size();
    ArrayColumn out = new ArrayColumn(size);
    for (int p = 0; p < size; p++) {
      switch (values.kind(p)) {
        case ValueColumn.LONG -> negate(out, p, values.getLong(p));
        case ValueColumn.DOUBLE -> out.setDouble(p, -values.getDouble(p));
        case ValueColumn.TEXT -> {
          switch (EvalValues.number(values.getText(p))) {
            case Long l -> negate(out, p, l);
            case Double d -> out.setDouble(p, -d);
            case null, default -> out.setNull(p);
          }
        }
        default -> out.setNull(p);
      }
    }
    return out;
  }

  private static void negate(ArrayColumn out, int p, long value) {
    if (value == Long.MIN_VALUE) {
      out.setDouble(p, -(double) value);
    } else {
      out.setLong(p, -value);
    }
  }
}
